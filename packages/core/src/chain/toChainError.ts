import {
  ContractFunctionRevertedError,
  ExecutionRevertedError,
  HttpRequestError,
  InsufficientFundsError,
  SocketClosedError,
  TimeoutError,
  BaseError as ViemBaseError,
  WebSocketRequestError,
} from 'viem'
import { BaseError } from '../errors/baseError.js'
import { ChainUnavailableError } from '../errors/errors.js'

/**
 * True when the RPC could not be reached or did not answer (the request may be retried);
 * false when the node answered with an error. Classified by viem's error classes, never by text.
 */
export function isTransportError(error: unknown): boolean {
  return (
    findViemError(error, [HttpRequestError, TimeoutError, WebSocketRequestError, SocketClosedError]) !==
    undefined
  )
}

/**
 * Turns an error from a viem call into an AgentWallet error with a code.
 * @example catch (error) { throw toChainError(error, chain.name) }
 */
export function toChainError(error: unknown, chain: string): BaseError {
  if (error instanceof BaseError) return error
  if (isTransportError(error)) return new ChainUnavailableError(chain, { cause: error })
  if (findViemError(error, [InsufficientFundsError])) {
    return new BaseError('insufficient_funds', 'The wallet cannot pay for this transaction', {
      details: { chain },
      cause: error,
    })
  }
  const reverted = findViemError(error, [ContractFunctionRevertedError, ExecutionRevertedError])
  if (reverted) {
    return new BaseError('transaction_failed', 'The transaction would revert', {
      details: { chain, reason: (reverted as ViemBaseError).shortMessage },
      cause: error,
    })
  }
  return new BaseError('transaction_failed', 'The chain rejected the request', {
    details: { chain, reason: error instanceof ViemBaseError ? error.shortMessage : undefined },
    cause: error,
  })
}

function findViemError(
  error: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: error constructors of any shape
  classes: readonly (abstract new (...args: any[]) => Error)[],
): Error | undefined {
  let current: unknown = error
  for (let depth = 0; current instanceof Error && depth < 20; depth++) {
    if (classes.some((type) => current instanceof type)) return current
    current = current.cause
  }
  return undefined
}

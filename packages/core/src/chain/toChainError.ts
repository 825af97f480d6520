import {
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
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
 * True when the node ran the call and the contract reverted, or had no code to answer with (as
 * opposed to the node failing to serve it): for a read, "no such record"; for a write, a
 * transaction that would fail.
 * @example if (isRevert(error)) return undefined
 */
export function isRevert(error: unknown): boolean {
  return (
    findViemError(error, [
      ContractFunctionRevertedError,
      ExecutionRevertedError,
      ContractFunctionZeroDataError,
    ]) !== undefined
  )
}

/**
 * Turns an error from a viem call into an AgentWallet error with a code. For a `read`, a node that
 * answers with an error of its own (rate limit, internal error) is `chain_unavailable`, never a
 * transaction that failed: nothing was sent.
 * @example catch (error) { throw toChainError(error, chain.name, { read: true }) }
 */
export function toChainError(error: unknown, chain: string, options: { read?: boolean } = {}): BaseError {
  if (error instanceof BaseError) return error
  if (isTransportError(error)) return new ChainUnavailableError(chain, { cause: error })
  if (options.read && !isRevert(error)) {
    return new ChainUnavailableError(chain, {
      details: { chain, reason: error instanceof ViemBaseError ? error.shortMessage : undefined },
      cause: error,
    })
  }
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

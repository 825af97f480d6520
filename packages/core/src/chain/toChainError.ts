import {
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  ExecutionRevertedError,
  HttpRequestError,
  InsufficientFundsError,
  InternalRpcError,
  LimitExceededRpcError,
  ResourceUnavailableRpcError,
  SocketClosedError,
  TimeoutError,
  BaseError as ViemBaseError,
  WebSocketRequestError,
} from 'viem'
import { BaseError } from '../errors/baseError.js'
import { ChainUnavailableError } from '../errors/errors.js'

/**
 * True when the RPC could not be reached, did not answer, or would not serve the request now (an HTTP
 * error status, a rate limit, a resource it lacks for the moment): the request may be retried, and
 * whether a send took effect is unknown. False when the node answered about the request itself.
 * Classified by viem's error classes and JSON-RPC codes, never by text.
 */
export function isTransportError(error: unknown): boolean {
  return (
    findViemError(error, [
      HttpRequestError,
      TimeoutError,
      WebSocketRequestError,
      SocketClosedError,
      LimitExceededRpcError,
      ResourceUnavailableRpcError,
    ]) !== undefined || hasRateLimitCode(error)
  )
}

/**
 * Rate limits viem has no class for: a JSON-RPC error 429 (some providers answer HTTP 200 with it) and
 * QuickNode's -32007. viem wraps them as UnknownRpcError; the code sits on the error it wraps.
 */
const rateLimitCodes: ReadonlySet<number> = new Set([429, -32005, -32007])

function hasRateLimitCode(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; current instanceof Error && depth < 20; depth++) {
    const { code } = current as { code?: unknown }
    if (typeof code === 'number' && rateLimitCodes.has(code)) return true
    current = current.cause
  }
  return false
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
  if (isTransportError(error)) return new ChainUnavailableError(chain, { details: { chain }, cause: error })
  // Before the read rule: an estimate (a read) can learn that the wallet cannot pay.
  if (findViemError(error, [InsufficientFundsError])) {
    return new BaseError('insufficient_funds', 'The wallet cannot pay for this transaction', {
      details: { chain },
      cause: error,
    })
  }
  if (options.read && !isRevert(error)) {
    return new ChainUnavailableError(chain, {
      details: { chain, reason: error instanceof ViemBaseError ? error.shortMessage : undefined },
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
  // The node's own error (-32603) says nothing about the request: it may serve it on a retry.
  if (findViemError(error, [InternalRpcError])) {
    return new ChainUnavailableError(chain, { details: { chain, reason: nodeReason(error) }, cause: error })
  }
  return new BaseError('transaction_failed', 'The chain rejected the request', {
    details: { chain, reason: nodeReason(error) },
    cause: error,
  })
}

/**
 * The node's own words for an error (viem's `details` of the deepest error that has them: "nonce
 * too high. Expected nonce to be 4 but got 5", "insufficient funds for gas * price + value"), else
 * viem's short message. Kept on a failed record so an operator can tell why.
 * @example nodeReason(error) // 'nonce too low'
 */
export function nodeReason(error: unknown): string | undefined {
  let reason: string | undefined
  let current: unknown = error
  for (let depth = 0; current instanceof Error && depth < 20; depth++) {
    if (current instanceof ViemBaseError) {
      reason = current.details || reason || current.shortMessage
    }
    current = current.cause
  }
  return reason
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

import { HttpRequestError, SocketClosedError, TimeoutError, WebSocketRequestError } from 'viem'
import { BaseError } from '../errors/baseError.js'

/**
 * ERC-4337 / ERC-7769 rejection codes: the bundler ran the op's validation and refused it (account
 * or paymaster validation, banned opcode, validity window, stake, aggregator, signature, or the
 * execution reverted during estimation).
 */
const rejectionCodes: ReadonlySet<number> = new Set([
  -32500, -32501, -32502, -32503, -32505, -32506, -32507, -32521,
])
/** The bundler throttles or bans an entity of the op (its account, factory or paymaster). */
const throttledCode = -32504
const invalidParamsCode = -32602

/**
 * Turns an error from a bundler's JSON-RPC into an AgentWallet error, by viem's error classes and the
 * JSON-RPC codes on its cause chain, never by text: a rejected op is `user_operation_rejected` (422, as the relayer's EntryPoint refusal) with
 * the bundler's reason in `details`, malformed fields `validation_failed`, a throttled entity
 * `rate_limited`, and an unreachable or failing bundler `chain_unavailable`.
 * @example catch (error) { throw toBundlerError(error, 'alto') }
 */
export function toBundlerError(error: unknown, bundler: string): BaseError {
  if (error instanceof BaseError) return error
  const rpc = rpcCodeOf(error)
  const details = { bundler, rpcCode: rpc?.code, reason: rpc?.reason }
  if (rpc && !isTransport(error)) {
    if (rejectionCodes.has(rpc.code))
      return new BaseError('user_operation_rejected', 'The bundler rejected the user operation', {
        details,
        cause: error,
      })
    if (rpc.code === invalidParamsCode)
      return new BaseError('validation_failed', 'The bundler found the user operation malformed', {
        details,
        cause: error,
      })
    if (rpc.code === throttledCode)
      return new BaseError('rate_limited', 'The bundler throttles an entity of the user operation', {
        details,
        cause: error,
      })
  }
  return new BaseError('chain_unavailable', 'The bundler is unavailable', { details, cause: error })
}

function isTransport(error: unknown): boolean {
  const transport = [HttpRequestError, TimeoutError, WebSocketRequestError, SocketClosedError]
  return causes(error).some((cause) => transport.some((type) => cause instanceof type))
}

/** The deepest JSON-RPC code on the cause chain (viem's own wrappers carry -1 or none). */
function rpcCodeOf(error: unknown): { code: number; reason: string } | undefined {
  let found: { code: number; reason: string } | undefined
  for (const cause of causes(error)) {
    // viem's RpcRequestError keeps the bundler's own message in `details`.
    const { code, details } = cause as { code?: unknown; details?: unknown }
    if (typeof code === 'number' && code !== -1)
      found = { code, reason: typeof details === 'string' && details ? details : cause.message }
  }
  return found
}

function causes(error: unknown): Error[] {
  const chain: Error[] = []
  for (let current = error; current instanceof Error && chain.length < 20; current = current.cause)
    chain.push(current)
  return chain
}

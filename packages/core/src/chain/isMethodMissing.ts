import { MethodNotFoundRpcError, MethodNotSupportedRpcError, BaseError as ViemBaseError } from 'viem'

/**
 * True when the node does not serve the method (or not with these parameters): a node built
 * otherwise, to ask by another method (`anvil_setBalance` for `hardhat_setBalance`, the trace for
 * `eth_simulateV1`). Classified by viem's error class, never by text.
 * @example if (isMethodMissing(error)) return traceCall(chain, from, call)
 */
export function isMethodMissing(error: unknown): boolean {
  return (
    error instanceof ViemBaseError &&
    error.walk(
      (cause) => cause instanceof MethodNotFoundRpcError || cause instanceof MethodNotSupportedRpcError,
    ) !== null
  )
}

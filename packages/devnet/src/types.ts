/**
 * One JSON-RPC call. `params` (an array) defaults to `[]`: EDR rejects a missing params field.
 * Typed loosely so the provider also satisfies viem's `EIP1193Provider['request']`.
 */
export type RequestArguments = { method: string; params?: unknown }

/**
 * The EIP-1193 surface of the devnet; pass it to viem with `custom(devnet.provider)`.
 * Errors are {@link RpcError}s carrying the JSON-RPC `code` and `data` (revert data).
 */
export type DevnetProvider = {
  // biome-ignore lint/suspicious/noExplicitAny: EIP-1193 results are untyped JSON
  request(args: RequestArguments): Promise<any>
}

/** A JSON-RPC error from the devnet, shaped like an EIP-1193 error so viem can decode reverts. */
export class RpcError extends Error {
  override name = 'RpcError' as const
  readonly code: number
  readonly data: unknown

  constructor({ code, message, data }: { code: number; message: string; data?: unknown }) {
    super(message)
    this.code = code
    this.data = data
  }
}

/** A JSON-RPC error of the Solana devnet, with the code and data a real cluster answers with. */
export class SolanaRpcError extends Error {
  override name = 'SolanaRpcError' as const
  readonly code: number
  readonly data: unknown

  constructor({ code, message, data }: { code: number; message: string; data?: unknown }) {
    super(message)
    this.code = code
    this.data = data
  }
}

/** The codes Agave's RPC uses for what the devnet refuses (`rpc/src/custom_error.rs`). */
export const rpcErrorCodes = {
  invalidParams: -32602,
  methodNotFound: -32601,
  sendTransactionPreflightFailure: -32002,
  transactionSignatureVerificationFailure: -32003,
  unsupportedTransactionVersion: -32015,
} as const

/** An invalid-params error, as Agave words them ("Invalid param: …"). */
export const invalidParam = (message: string) =>
  new SolanaRpcError({ code: rpcErrorCodes.invalidParams, message: `Invalid param: ${message}` })

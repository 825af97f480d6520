import { rpcErrorCodes, SolanaRpcError } from './solanaRpcError.js'
import type { TransactionError } from './toTransactionError.js'

/**
 * The error `sendTransaction` answers when its preflight simulation fails (code -32002, the simulation
 * result as data): `@solana/kit` raises it as `SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE`
 * with the transaction error as its cause.
 */
export function preflightFailure(err: TransactionError, logs: string[] = [], unitsConsumed = 0n) {
  if (err === 'SignatureFailure') return signatureFailure()
  const what = typeof err === 'string' ? err : JSON.stringify(err)
  return new SolanaRpcError({
    code: rpcErrorCodes.sendTransactionPreflightFailure,
    message: `Transaction simulation failed: ${what}`,
    data: {
      accounts: null,
      err,
      innerInstructions: null,
      logs,
      replacementBlockhash: null,
      returnData: null,
      unitsConsumed,
    },
  })
}

export const signatureFailure = () =>
  new SolanaRpcError({
    code: rpcErrorCodes.transactionSignatureVerificationFailure,
    message: 'Transaction signature verification failure',
  })

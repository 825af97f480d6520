import type { Blockhash, EncodedAccount } from '@solana/kit'
import { FailedTransactionMetadata, type LiteSVM, type TransactionMetadata } from 'litesvm'
import { computeFee } from './computeFee.js'
import type { DecodedTransaction } from './decodeWireTransaction.js'
import { toReturnData } from './toInnerInstructions.js'
import { type TransactionError, toTransactionError } from './toTransactionError.js'

export type SimulationResult = {
  err: TransactionError | null
  logs: string[]
  unitsConsumed: bigint
  returnData: ReturnType<typeof toReturnData>
  postAccounts: EncodedAccount[]
  fee: bigint
  replacementBlockhash: { blockhash: Blockhash; lastValidBlockHeight: bigint } | null
}

/**
 * Runs a transaction against the current state and keeps nothing: the result, the written accounts'
 * post-state and the fee. `sigVerify` false lets callers simulate unsigned messages (compute-unit estimates).
 */
export function simulateOn(svm: LiteSVM, decoded: DecodedTransaction, sigVerify: boolean): SimulationResult {
  svm.withSigverify(sigVerify)
  try {
    const result = svm.simulateTransaction(decoded.transaction)
    const failed = result instanceof FailedTransactionMetadata
    const meta: TransactionMetadata = result.meta()
    return {
      err: failed ? toTransactionError(result.err()) : null,
      logs: meta.logs(),
      unitsConsumed: meta.computeUnitsConsumed(),
      returnData: toReturnData(meta),
      postAccounts: failed ? [] : result.postAccounts(),
      fee: computeFee(decoded.message),
      replacementBlockhash: null,
    }
  } finally {
    svm.withSigverify(true)
  }
}

import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type Instruction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type TransactionSigner,
} from '@solana/kit'
import type { SolanaChainHandle } from '../chain/types.js'
import { toSolanaChainError } from './toSolanaChainError.js'

/** A signed Solana transaction as the ledger keeps it: its wire bytes and what says when it expires. */
export type SignedSolanaTransaction = {
  signature: string
  /** Base64 of the wire transaction: what is broadcast, and broadcast again. */
  wire: string
  /** Base64 of the signed message (`getFeeForMessage`). */
  message: string
  blockhash: string
  /** The transaction cannot land in a block above this height: past it and unknown, it never will. */
  lastValidBlockHeight: bigint
}

/**
 * Signs `instructions` with the wallet as fee payer under the chain's latest blockhash.
 * @example const signed = await signSolanaTransaction(chain, payer, instructions)
 */
export async function signSolanaTransaction(
  chain: SolanaChainHandle,
  payer: TransactionSigner,
  instructions: readonly Instruction[],
): Promise<SignedSolanaTransaction> {
  const { value: lifetime } = await chain.rpc
    .getLatestBlockhash()
    .send()
    .catch((error: unknown) => {
      throw toSolanaChainError(error, chain.name)
    })
  const signed = await pipe(
    createTransactionMessage({ version: 0 }),
    (message) => setTransactionMessageFeePayerSigner(payer, message),
    (message) => setTransactionMessageLifetimeUsingBlockhash(lifetime, message),
    (message) => appendTransactionMessageInstructions(instructions, message),
    (message) => signTransactionMessageWithSigners(message),
  )
  return {
    signature: getSignatureFromTransaction(signed),
    wire: getBase64EncodedWireTransaction(signed),
    message: Buffer.from(signed.messageBytes).toString('base64'),
    blockhash: lifetime.blockhash,
    lastValidBlockHeight: lifetime.lastValidBlockHeight,
  }
}

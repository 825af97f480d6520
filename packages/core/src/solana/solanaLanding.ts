import { type Signature, signature as toSignature } from '@solana/kit'
import type { SolanaChainHandle } from '../chain/types.js'
import { toSolanaChainError } from './toSolanaChainError.js'

type Finality = 'pending' | 'finalized'

/**
 * Where a sent Solana transaction stands, as the ledger records it:
 * - `landed`: in a block; `status` `confirmed` (finality `pending` at the `confirmed` commitment,
 *   `finalized` at `finalized`) or `failed` (its program failed: it landed, paid its fee, moved nothing
 *   else); `processed` is still `submitted` (a minority fork may drop it);
 * - `pending`: no status yet while its blockhash is valid: it may still land (send it again);
 * - `expired`: no status, and the chain is past its `lastValidBlockHeight`: it never will. Only then
 *   is an unknown transaction failed.
 */
export type SolanaLanding =
  | {
      state: 'landed'
      status: 'submitted' | 'confirmed' | 'failed'
      finality: Finality
      slot: bigint
      error?: string | undefined
    }
  | { state: 'pending'; blockHeight: bigint }
  | { state: 'expired'; blockHeight: bigint }

/**
 * Asks the chain for a transaction's landing. The block height is read before the status, so an
 * `expired` answer cannot race a landing: past `lastValidBlockHeight`, nothing with that blockhash lands.
 * @example const landing = await solanaLanding(chain, record.hash, BigInt(record.lastValidBlockHeight))
 */
export async function solanaLanding(
  chain: SolanaChainHandle,
  signature: string,
  lastValidBlockHeight: bigint,
): Promise<SolanaLanding> {
  try {
    const blockHeight = await chain.rpc.getBlockHeight({ commitment: 'confirmed' }).send()
    const { value } = await chain.rpc
      .getSignatureStatuses([toSignature(signature) as Signature], { searchTransactionHistory: true })
      .send()
    const status = value[0]
    if (status) {
      const finality: Finality = status.confirmationStatus === 'finalized' ? 'finalized' : 'pending'
      const landed = { state: 'landed' as const, finality, slot: status.slot }
      if (status.err) return { ...landed, status: 'failed', error: JSON.stringify(status.err, bigints) }
      return { ...landed, status: status.confirmationStatus === 'processed' ? 'submitted' : 'confirmed' }
    }
    return blockHeight > lastValidBlockHeight
      ? { state: 'expired', blockHeight }
      : { state: 'pending', blockHeight }
  } catch (error) {
    throw toSolanaChainError(error, chain.name)
  }
}

function bigints(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value
}

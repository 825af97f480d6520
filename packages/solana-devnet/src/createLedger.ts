import type { Address } from '@solana/kit'
import type { DecodedTransaction } from './decodeWireTransaction.js'
import type { TokenBalance } from './readBalances.js'
import type { TransactionError } from './toTransactionError.js'

/** A transaction that landed in a block, with what `getTransaction` answers about it. */
export type TransactionRecord = {
  decoded: DecodedTransaction
  wire: Uint8Array
  slot: bigint
  blockTime: bigint
  err: TransactionError | null
  fee: bigint
  preBalances: bigint[]
  postBalances: bigint[]
  preTokenBalances: TokenBalance[]
  postTokenBalances: TokenBalance[]
  logMessages: string[]
  innerInstructions: { index: number; instructions: unknown[] }[]
  computeUnitsConsumed: bigint
  /** Micro-lamports per compute unit the transaction bid (for `getRecentPrioritizationFees`). */
  computeUnitPrice: bigint
}

export type ChainEvent =
  | { type: 'slot'; slot: bigint }
  | { type: 'transaction'; record: TransactionRecord; written: Address[] }

export type Ledger = ReturnType<typeof createLedger>

/** The devnet's history: landed transactions by signature and by account, and a feed of new blocks. */
export function createLedger() {
  const bySignature = new Map<string, TransactionRecord>()
  const byAddress = new Map<string, TransactionRecord[]>()
  const recent: TransactionRecord[] = []
  const listeners = new Set<(event: ChainEvent) => void>()
  return {
    add(record: TransactionRecord) {
      bySignature.set(record.decoded.signature, record)
      for (const key of new Set(record.decoded.accountKeys)) {
        const list = byAddress.get(key)
        if (list) list.push(record)
        else byAddress.set(key, [record])
      }
      recent.push(record)
      if (recent.length > 150) recent.shift()
    },
    get: (signature: string) => bySignature.get(signature),
    /** Oldest first. */
    forAddress: (address: string): readonly TransactionRecord[] => byAddress.get(address) ?? [],
    /** The last 150 landed transactions, oldest first. */
    recent: (): readonly TransactionRecord[] => recent,
    count: () => BigInt(bySignature.size),
    subscribe(listener: (event: ChainEvent) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    emit(event: ChainEvent) {
      for (const listener of listeners) listener(event)
    },
  }
}

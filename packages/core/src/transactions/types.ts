import type { Address, Hex } from 'viem'
import type { IntentAsset, PolicyIntent, UsdPrice } from '../intents/types.js'
import type { PolicyDecisionKind } from '../policy/types.js'

/**
 * The lifecycle of an intent. `queued` with a `rawTx` means signed but not yet known to be
 * broadcast; the tracker and the reconciler rebroadcast exactly that raw transaction.
 */
export type TransactionStatus =
  | 'pending_approval'
  | 'rejected'
  | 'expired'
  | 'blocked'
  | 'queued'
  | 'submitted'
  | 'confirmed'
  | 'failed'

/**
 * An intent settled by someone else from the wallet's signed authorization, not by a transaction the
 * wallet broadcasts (an x402 payment): the tracker never signs or broadcasts it.
 */
export function isSettledOffchain(record: Pick<TransactionRecord, 'kind'>): boolean {
  return record.kind === 'x402_payment'
}

export const finalStatuses: readonly TransactionStatus[] = [
  'rejected',
  'expired',
  'blocked',
  'confirmed',
  'failed',
]

export type TransactionRecord = {
  id: string
  tenantId: string
  walletId: string
  /** The principal that asked for it (cannot approve it). */
  requestedBy: string
  chain: string
  chainId: number
  kind: PolicyIntent['kind']
  from: Address
  /** Recipient of value, or the contract called. */
  to: Address
  asset: IntentAsset
  /** Base units of `asset`, as a decimal string. */
  amount: string
  /** The contract account the value is paid out of, when not `from` (a Safe this wallet executes for). */
  via?: Address | undefined
  /** What `amount` was worth in US dollars when the intent was made; set when a USD rule was in scope. */
  usd?: StoredUsd | undefined
  /** What the EVM transaction carries. */
  call: { to: Address; value: string; data?: Hex | undefined }
  status: TransactionStatus
  policy: {
    decision: PolicyDecisionKind
    ruleId?: string | undefined
    ruleType?: string | undefined
    reason: string
    details?: Record<string, unknown> | undefined
  }
  approvalId?: string | undefined
  nonce?: number | undefined
  gas?: { limit: string; maxFeePerGas: string; maxPriorityFeePerGas: string } | undefined
  rawTx?: Hex | undefined
  hash?: Hex | undefined
  /**
   * Earlier signatures of this intent at the same nonce, replaced with higher fees while stuck
   * (oldest first). Any of them may still be the one mined; then it becomes `hash` again.
   */
  replaced?: SignedVersion[] | undefined
  blockNumber?: number | undefined
  gasUsed?: string | undefined
  error?: { code: string; message: string } | undefined
  /** Free-form context of higher-level actions (swap quote, ENS name, Safe tx hash). */
  meta?: Record<string, unknown> | undefined
  createdAt: string
  updatedAt: string
  submittedAt?: string | undefined
  confirmedAt?: string | undefined
}

/**
 * A stored USD value: `value` in dollars, a decimal string exact to 10^-18 (the valuation rounds
 * up), and the feed round it was priced at (absent for a zero amount, which needs no price).
 * Window totals in USD add these values as stored: a past intent is never re-valued.
 */
export type StoredUsd = { value: string } & Partial<UsdPrice>

/** One signature of an intent: its raw bytes, hash and fees. */
export type SignedVersion = {
  hash: Hex
  rawTx: Hex
  gas: NonNullable<TransactionRecord['gas']>
  /** When it was replaced. */
  replacedAt: string
}

export type NonceRecord = { id: string; next: number }

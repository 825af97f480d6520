import { formatUnits } from 'viem'
import type { TransactionRecord } from './types.js'

/** A transaction as the API shows it: amounts as decimal strings, no raw signed bytes. */
export type TransactionView = {
  id: string
  hash: string | null
  status: TransactionRecord['status']
  chain: string
  kind: TransactionRecord['kind']
  from: string
  to: string
  asset: { address: string; symbol: string; decimals: number }
  amount: string
  amountRaw: string
  /** The Safe the value is paid out of, when not `from` (then `to` is the Safe's recipient). */
  via?: string | undefined
  nonce: number | null
  /** Earlier hashes of this tx at the same nonce, replaced with higher fees while it was stuck. */
  replacedHashes?: string[] | undefined
  blockNumber: number | null
  explorer: string | null
  approvalId: string | null
  policy: { decision: string; ruleId: string | null; reason: string }
  error: { code: string; message: string } | null
  meta?: Record<string, unknown> | undefined
  createdAt: string
  updatedAt: string
}

/**
 * The public view of a stored transaction.
 * @example toTransactionView(record, 'https://etherscan.io')
 */
export function toTransactionView(record: TransactionRecord, explorerUrl?: string): TransactionView {
  return {
    id: record.id,
    hash: record.hash ?? null,
    status: record.status,
    chain: record.chain,
    kind: record.kind,
    from: record.from,
    to: record.to,
    asset: { address: record.asset.address, symbol: record.asset.symbol, decimals: record.asset.decimals },
    amount: formatUnits(BigInt(record.amount), record.asset.decimals),
    amountRaw: record.amount,
    ...(record.via ? { via: record.via } : {}),
    nonce: record.nonce ?? null,
    ...(record.replaced?.length ? { replacedHashes: record.replaced.map((version) => version.hash) } : {}),
    blockNumber: record.blockNumber ?? null,
    explorer: explorerLink(explorerUrl, record.hash),
    approvalId: record.approvalId ?? null,
    policy: {
      decision: record.policy.decision,
      ruleId: record.policy.ruleId ?? null,
      reason: record.policy.reason,
    },
    error: record.error ?? null,
    ...(record.meta ? { meta: record.meta } : {}),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
}

/** `<explorer>/tx/<hash>`, or null where the chain has no explorer or the tx no hash yet. */
export function explorerLink(explorerUrl: string | undefined, hash: string | undefined): string | null {
  return explorerUrl && hash ? `${explorerUrl.replace(/\/$/, '')}/tx/${hash}` : null
}

import { formatUnits } from 'viem'
import type { TransactionView } from './transactionSchemas.js'
import { isMinedUserOperation, type TransactionRecord } from './types.js'

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
    ...(record.usd ? { usd: record.usd } : {}),
    ...(record.effects ? { effects: record.effects } : {}),
    nonce: record.nonce ?? null,
    ...(record.replaced?.length ? { replacedHashes: record.replaced.map((version) => version.hash) } : {}),
    ...(record.status === 'submitted' && record.stuck ? { stuck: record.stuck } : {}),
    ...(record.status === 'submitted' && record.cancels ? { cancelling: true as const } : {}),
    blockNumber: record.blockNumber ?? null,
    ...(record.blockNumber === undefined ? {} : { finality: record.finality ?? 'pending' }),
    explorer: explorerLink(explorerUrl, record.hash),
    ...(record.userOperation ? { userOperation: userOperationView(record) } : {}),
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

/** The op carrying a smart wallet's intent, with its own gas once included. */
function userOperationView(record: TransactionRecord): TransactionView['userOperation'] {
  const stored = record.userOperation
  if (!stored) return undefined
  return {
    hash: stored.hash,
    sender: stored.sender,
    entryPoint: stored.entryPoint,
    nonce: stored.op.nonce ?? '0',
    ...(isMinedUserOperation(record) ? { gasUsed: record.gasUsed, gasCost: record.gasCost } : {}),
  }
}

/** `<explorer>/tx/<hash>`, or null where the chain has no explorer or the tx no hash yet. */
export function explorerLink(explorerUrl: string | undefined, hash: string | undefined): string | null {
  return explorerUrl && hash ? `${explorerUrl.replace(/\/$/, '')}/tx/${hash}` : null
}

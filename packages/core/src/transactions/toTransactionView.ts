import { formatUnits } from 'viem'
import { z } from 'zod'
import { storedEffectsSchema } from '../effects/storedEffectsSchema.js'
import { out } from '../schemas/out.js'
import { isMinedOperation, type TransactionRecord } from './types.js'

/** Every status a transaction passes through (see docs/money-path.md). */
export const transactionStatuses = [
  'pending_approval',
  'rejected',
  'expired',
  'blocked',
  'queued',
  'submitted',
  'confirmed',
  'failed',
] as const satisfies readonly TransactionRecord['status'][]

/** A transaction as the API shows it: amounts as decimal strings, no raw signed bytes. */
export const transactionViewSchema = z.object({
  id: z.string(),
  hash: out.hash.nullable(),
  status: z.enum(transactionStatuses),
  chain: z.string(),
  kind: z.enum(['transfer', 'contract_call', 'swap', 'stake', 'identity', 'ens', 'multisig', 'x402_payment']),
  from: out.address,
  to: out.address,
  asset: z.object({
    address: z.union([out.address, z.literal('native')]),
    symbol: z.string(),
    decimals: z.number().int(),
  }),
  amount: out.decimal,
  amountRaw: out.baseUnits,
  /** The Safe the value is paid out of, when not `from` (then `to` is the Safe's recipient). */
  via: out.address.optional(),
  /**
   * What the amount was worth in US dollars when the intent was made (only when a USD rule was in
   * scope), and the price feed round used (absent for a zero amount).
   */
  usd: z
    .object({
      value: out.decimal,
      price: out.decimal.optional(),
      pair: z.string().optional(),
      feed: out.address.optional(),
      roundId: z.string().optional(),
      updatedAt: out.timestamp.optional(),
    })
    .optional(),
  /** What the intent was judged to do to the paying account (absent on records made before effects were judged). */
  effects: storedEffectsSchema.optional(),
  nonce: z.number().int().nullable(),
  /** Earlier hashes of this tx at the same nonce, replaced with higher fees while it was stuck. */
  replacedHashes: z.array(out.hash).optional(),
  /**
   * A submitted tx the tracker no longer raises: the raise it needs (`neededMaxFeePerGas`, wei per
   * gas) passes the cap (`fee_cap_reached`: `maxFeeBumpMultiplier` times its first max fee), or the
   * wallet cannot pay it (`insufficient_funds`). `speed-up` (with an explicit max fee) or `cancel` moves it.
   */
  stuck: z
    .object({
      since: out.timestamp,
      reason: z.enum(['fee_cap_reached', 'insufficient_funds']),
      maxFeePerGas: out.baseUnits,
      neededMaxFeePerGas: out.baseUnits,
      capMaxFeePerGas: out.baseUnits,
    })
    .optional(),
  /** A submitted tx whose newest signature is its cancel (a zero-value transfer to itself). */
  cancelling: z.literal(true).optional(),
  blockNumber: z.number().int().nullable(),
  /**
   * For a mined tx: `pending` while its block may still be reorganised away (the tracker re-checks
   * it), `finalized` once it is the chain's finality depth deep. `status` stays `confirmed` (or
   * `failed` for a revert) either way.
   */
  finality: z.enum(['pending', 'finalized']).optional(),
  explorer: z.string().nullable(),
  /**
   * A smart wallet's send: the user operation that carries it (`hash`: the userOpHash; `nonce`: the
   * op's EntryPoint nonce, its key derived from the intent) and, once included, what the op itself
   * used and paid from its `UserOperationEvent` (`gasCost` in wei). `hash` and `blockNumber` above
   * are those of the transaction that carried it.
   */
  userOperation: z
    .object({
      hash: out.hash,
      sender: out.address,
      entryPoint: out.address,
      nonce: out.baseUnits,
      gasUsed: out.baseUnits.optional(),
      gasCost: out.baseUnits.optional(),
    })
    .optional(),
  approvalId: z.string().nullable(),
  policy: z.object({ decision: z.string(), ruleId: z.string().nullable(), reason: z.string() }),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  meta: z.record(z.string(), z.unknown()).optional(),
  createdAt: out.timestamp,
  updatedAt: out.timestamp,
})
export type TransactionView = z.infer<typeof transactionViewSchema>

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
    ...(record.userOperation ? { userOperation: operationView(record) } : {}),
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
function operationView(record: TransactionRecord): TransactionView['userOperation'] {
  const stored = record.userOperation
  if (!stored) return undefined
  return {
    hash: stored.hash,
    sender: stored.sender,
    entryPoint: stored.entryPoint,
    nonce: stored.op.nonce ?? '0',
    ...(isMinedOperation(record) ? { gasUsed: record.gasUsed, gasCost: record.gasCost } : {}),
  }
}

/** `<explorer>/tx/<hash>`, or null where the chain has no explorer or the tx no hash yet. */
export function explorerLink(explorerUrl: string | undefined, hash: string | undefined): string | null {
  return explorerUrl && hash ? `${explorerUrl.replace(/\/$/, '')}/tx/${hash}` : null
}

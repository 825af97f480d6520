import * as z from 'zod/mini'
import { storedEffectsSchema } from '../effects/storedEffectsSchema.js'
import { out } from '../schemas/out.js'
import { pageFields } from '../schemas/primitives.js'
import { chainField, walletField } from '../wallets/walletSchemas.js'

// Not a recursive zod schema: its type would be too deep for the client's inferred method types.
const jsonSchema = z
  .unknown()
  .check(
    z.describe(
      'The argument as JSON: integers as decimal strings, bytes and addresses as 0x hex, tuples as objects',
    ),
  )

export const argumentSchema = z.object({
  name: z.string(),
  type: z.string(),
  value: jsonSchema,
  /** A token amount in the token's units, where the contract is a known token: "1.5 USDC". */
  formatted: z.optional(z.string()),
})

export const decodedCallSchema = z.object({
  /** The function's signature, e.g. `transfer(address,uint256)`; null when no known ABI has the selector. */
  signature: z.nullable(z.string()),
  function: z.nullable(z.string()),
  args: z.array(argumentSchema),
})

export type DecodedCall = z.infer<typeof decodedCallSchema>

export const decodedEventSchema = z.object({
  logIndex: z.number().check(z.int()),
  address: out.address,
  /** What the address book calls the emitting contract; null for one it does not name. */
  contract: z.nullable(z.string()),
  signature: z.nullable(z.string()),
  event: z.nullable(z.string()),
  args: z.array(argumentSchema),
  /** The raw log, for events no known ABI decodes. */
  topics: z.array(out.hex),
  data: out.hex,
})

export type DecodedEvent = z.infer<typeof decodedEventSchema>

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
] as const

/** Every status but `pending_approval`: a transaction past its approval. */
const statusesPastApproval = transactionStatuses.filter(
  (status): status is Exclude<(typeof transactionStatuses)[number], 'pending_approval'> =>
    status !== 'pending_approval',
)

/** A transaction as the API shows it: amounts as decimal strings, no raw signed bytes. */
export const transactionViewSchema = z.object({
  id: z.string(),
  hash: z.nullable(out.hash),
  status: z.enum(transactionStatuses),
  chain: z.string(),
  kind: z.enum(['transfer', 'contract_call', 'swap', 'stake', 'identity', 'ens', 'multisig', 'x402_payment']),
  from: out.address,
  to: out.address,
  asset: z.object({
    address: z.union([out.address, z.literal('native')]),
    symbol: z.string(),
    decimals: z.number().check(z.int()),
  }),
  amount: out.decimal,
  amountRaw: out.baseUnits,
  /** The Safe the value is paid out of, when not `from` (then `to` is the Safe's recipient). */
  via: z.optional(out.address),
  /**
   * What the amount was worth in US dollars when the intent was made (only when a USD rule was in
   * scope), and the price feed round used (absent for a zero amount).
   */
  usd: z.optional(
    z.object({
      value: out.decimal,
      price: z.optional(out.decimal),
      pair: z.optional(z.string()),
      feed: z.optional(out.address),
      roundId: z.optional(z.string()),
      updatedAt: z.optional(out.timestamp),
    }),
  ),
  /** What the intent was judged to do to the paying account (absent on records made before effects were judged). */
  effects: z.optional(storedEffectsSchema),
  nonce: z.nullable(z.number().check(z.int())),
  /** Earlier hashes of this tx at the same nonce, replaced with higher fees while it was stuck. */
  replacedHashes: z.optional(z.array(out.hash)),
  /**
   * A submitted tx the tracker no longer raises: the raise it needs (`neededMaxFeePerGas`, wei per
   * gas) passes the cap (`fee_cap_reached`: `maxFeeBumpMultiplier` times its first max fee), or the
   * wallet cannot pay it (`insufficient_funds`). `speed-up` (with an explicit max fee) or `cancel` moves it.
   */
  stuck: z.optional(
    z.object({
      since: out.timestamp,
      reason: z.enum(['fee_cap_reached', 'insufficient_funds']),
      maxFeePerGas: out.baseUnits,
      neededMaxFeePerGas: out.baseUnits,
      capMaxFeePerGas: out.baseUnits,
    }),
  ),
  /** A submitted tx whose newest signature is its cancel (a zero-value transfer to itself). */
  cancelling: z.optional(z.literal(true)),
  blockNumber: z.nullable(z.number().check(z.int())),
  /**
   * For a mined tx: `pending` while its block may still be reorganised away (the tracker re-checks
   * it), `finalized` once it is the chain's finality depth deep. `status` stays `confirmed` (or
   * `failed` for a revert) either way.
   */
  finality: z.optional(z.enum(['pending', 'finalized'])),
  explorer: z.nullable(z.string()),
  /**
   * A smart wallet's send: the user operation that carries it (`hash`: the userOpHash; `nonce`: the
   * op's EntryPoint nonce, its key derived from the intent) and, once included, what the op itself
   * used and paid from its `UserOperationEvent` (`gasCost` in wei). `hash` and `blockNumber` above
   * are those of the transaction that carried it.
   */
  userOperation: z.optional(
    z.object({
      hash: out.hash,
      sender: out.address,
      entryPoint: out.address,
      nonce: out.baseUnits,
      gasUsed: z.optional(out.baseUnits),
      gasCost: z.optional(out.baseUnits),
    }),
  ),
  approvalId: z.nullable(z.string()),
  policy: z.object({ decision: z.string(), ruleId: z.nullable(z.string()), reason: z.string() }),
  /** Why it failed: `reason` is the node's own words for a refusal ("nonce too low"), when it gave any. */
  error: z.nullable(z.object({ code: z.string(), message: z.string(), reason: z.optional(z.string()) })),
  meta: z.optional(z.record(z.string(), z.unknown())),
  createdAt: out.timestamp,
  updatedAt: out.timestamp,
})

export type TransactionView = z.infer<typeof transactionViewSchema>

/** What a paused answer (HTTP 202) says of the approval it waits for. */
export const approvalSummarySchema = z.object({
  id: z.string(),
  expiresAt: out.timestamp,
  ruleId: z.nullable(z.string()),
  reason: z.string(),
  /** What the approver will be shown: the transaction's effects (absent for an intent made before effects). */
  effects: z.optional(storedEffectsSchema),
  headline: z
    .optional(z.string())
    .check(
      z.describe(
        'What the approver is asked to let happen, in one line from the effects, the largest outflow first: "Allow 0x… to spend 500 USDC (≈ $500)"',
      ),
    ),
})

export type ApprovalSummary = z.infer<typeof approvalSummarySchema>

/**
 * What a send answers: the transaction, and, when a rule paused it, the approval it waits for
 * (HTTP 202). `hash` is null until a transaction is signed.
 */
export const sendAnswerSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('pending_approval'),
    hash: z.null(),
    approval: approvalSummarySchema,
    transaction: transactionViewSchema,
  }),
  z.object({
    status: z.enum(statusesPastApproval),
    hash: transactionViewSchema.shape.hash,
    transaction: transactionViewSchema,
  }),
])

export type SendAnswer = z.infer<typeof sendAnswerSchema>

const estimateFields = {
  chain: z.string(),
  gasLimit: out.baseUnits,
  maxFeePerGas: out.baseUnits.check(z.describe('wei per gas')),
  maxPriorityFeePerGas: out.baseUnits.check(z.describe('wei per gas')),
  /** gasLimit × maxFeePerGas, the most the tx can cost in gas, in ETH and wei. */
  maxCost: out.decimal.check(z.describe('The most the transaction can cost in gas, in ETH')),
  maxCostWei: out.baseUnits,
}

/** The estimate, and the same figures again under `estimate` (the reference clients read them there). */
export const estimateGasAnswerSchema = z.object({ ...estimateFields, estimate: z.object(estimateFields) })

export type EstimateGasReturnType = z.infer<typeof estimateGasAnswerSchema>

/** A hash `0x…` or an id `tx_…`: one field names a transaction everywhere. */
export const transactionField = z
  .string()
  .check(z.minLength(1), z.maxLength(100), z.describe('Transaction hash (0x…) or id (tx_…)'))

export const getTransactionSchema = z.strictObject({
  transaction: transactionField,
  chain: z.optional(chainField).check(z.describe('The chain the transaction is on (hashes are per chain)')),
})

/**
 * What an answer about one transaction (get, details, wait) adds: the other records under its `hash`
 * that the caller may see. A smart wallet's send has the hash of the relayer's `handleOps` that
 * included its user operation, shared with that tx's own record and every op of the same bundle.
 */
export const hashLinkFields = {
  carrier: z
    .optional(z.object({ id: z.string(), hash: out.hash }))
    .check(
      z.describe(
        'The record of the transaction that carried this intent (the tenant relayer’s handleOps of a smart wallet’s user operation); a hash names the intent, not its carrier',
      ),
    ),
  carried: z
    .optional(z.array(z.string()))
    .check(
      z.describe(
        'Ids of the other intents the same transaction carried (on the carrier’s own record: all it carried), oldest first',
      ),
    ),
}

export type HashLinks = z.infer<z.ZodMiniObject<typeof hashLinkFields>>

/** A transaction with its block number, confirmations and explorer link, also at the top level. */
export const transactionAnswerSchema = z.object({
  hash: transactionViewSchema.shape.hash,
  status: transactionViewSchema.shape.status,
  blockNumber: transactionViewSchema.shape.blockNumber,
  explorer: transactionViewSchema.shape.explorer,
  confirmations: z.number().check(z.int()),
  transaction: z.extend(transactionViewSchema, {
    confirmations: z.number().check(z.int()),
    ...hashLinkFields,
  }),
})

export type GetTransactionReturnType = z.infer<typeof transactionAnswerSchema>

/** A transaction as an explorer page shows it: what it called, what it cost, what it emitted. */
export const transactionDetailsSchema = z.object({
  transaction: z.extend(transactionViewSchema, hashLinkFields),
  /** The EVM call: its target (the address book's name for it), value in ETH and wei, calldata decoded. */
  call: z.object({
    to: out.address,
    contract: z.nullable(z.string()),
    value: out.decimal,
    valueWei: out.baseUnits,
    data: out.hex,
    decoded: z.nullable(decodedCallSchema),
  }),
  /** Null until the transaction is mined. */
  block: z.nullable(z.object({ number: z.number().check(z.int()), timestamp: out.timestamp })),
  receipt: z.nullable(
    z.object({
      status: z.enum(['success', 'reverted']),
      gasUsed: out.baseUnits,
      effectiveGasPrice: out.baseUnits.check(z.describe('wei per gas')),
      fee: out.decimal.check(z.describe('gasUsed × effectiveGasPrice, in ETH')),
    }),
  ),
  /** The receipt's logs, each decoded where a known ABI has its event. */
  events: z.array(decodedEventSchema),
})

export type TransactionDetails = z.infer<typeof transactionDetailsSchema>

export const historyQuerySchema = z.strictObject({
  wallet: walletField,
  ...pageFields({ defaultLimit: 50, maxLimit: 200 }),
})

export type ListHistoryParameters = z.input<typeof historyQuerySchema>

export const waitForTransactionSchema = z.strictObject({
  transaction: transactionField,
  timeoutMs: z
    ._default(z.number().check(z.int(), z.gte(0), z.lte(120_000)), 60_000)
    .check(z.describe('How long to wait at most, in ms (default 60000, at most 120000)')),
})

/** The transaction when it settled, or as it stands when the wait ran out (`final: false`). */
export const waitForTransactionAnswerSchema = z.extend(transactionAnswerSchema, { final: z.boolean() })

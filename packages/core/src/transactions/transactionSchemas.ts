import * as z from 'zod'
import { storedEffectsSchema } from '../effects/storedEffectsSchema.js'
import { out } from '../schemas/out.js'
import { pageFields } from '../schemas/primitives.js'
import { chainField, walletField } from '../wallets/walletSchemas.js'

// Not a recursive zod schema: its type would be too deep for the client's inferred method types.
const jsonSchema = z
  .unknown()
  .describe(
    'The argument as JSON: integers as decimal strings, bytes and addresses as 0x hex, tuples as objects',
  )

export const argumentSchema = z.object({
  name: z.string(),
  type: z.string(),
  value: jsonSchema,
  /** A token amount in the token's units, where the contract is a known token: "1.5 USDC". */
  formatted: z.string().optional(),
})

export const decodedCallSchema = z.object({
  /** The function's signature, e.g. `transfer(address,uint256)`; null when no known ABI has the selector. */
  signature: z.string().nullable(),
  function: z.string().nullable(),
  args: z.array(argumentSchema),
})

export type DecodedCall = z.infer<typeof decodedCallSchema>

export const decodedEventSchema = z.object({
  logIndex: z.number().int(),
  address: out.address,
  /** What the address book calls the emitting contract; null for one it does not name. */
  contract: z.string().nullable(),
  signature: z.string().nullable(),
  event: z.string().nullable(),
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

/** What a paused answer (HTTP 202) says of the approval it waits for. */
export const approvalSummarySchema = z.object({
  id: z.string(),
  expiresAt: out.timestamp,
  ruleId: z.string().nullable(),
  reason: z.string(),
  /** What the approver will be shown: the transaction's effects (absent for an intent made before effects). */
  effects: storedEffectsSchema.optional(),
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
    status: z.enum(transactionStatuses).exclude(['pending_approval']),
    hash: transactionViewSchema.shape.hash,
    transaction: transactionViewSchema,
  }),
])

export type SendAnswer = z.infer<typeof sendAnswerSchema>

const estimateFields = {
  chain: z.string(),
  gasLimit: out.baseUnits,
  maxFeePerGas: out.baseUnits.describe('wei per gas'),
  maxPriorityFeePerGas: out.baseUnits.describe('wei per gas'),
  /** gasLimit × maxFeePerGas, the most the tx can cost in gas, in ETH and wei. */
  maxCost: out.decimal.describe('The most the transaction can cost in gas, in ETH'),
  maxCostWei: out.baseUnits,
}

/** The estimate, and the same figures again under `estimate` (the reference clients read them there). */
export const estimateGasAnswerSchema = z.object({ ...estimateFields, estimate: z.object(estimateFields) })

export type EstimateGasReturnType = z.infer<typeof estimateGasAnswerSchema>

/** A hash `0x…` or an id `tx_…`: one field names a transaction everywhere. */
export const transactionField = z.string().min(1).max(100).describe('Transaction hash (0x…) or id (tx_…)')

export const getTransactionSchema = z.strictObject({
  transaction: transactionField,
  chain: chainField.optional().describe('The chain the transaction is on (hashes are per chain)'),
})

/** A transaction with its block number, confirmations and explorer link, also at the top level. */
export const transactionAnswerSchema = z.object({
  hash: transactionViewSchema.shape.hash,
  status: transactionViewSchema.shape.status,
  blockNumber: transactionViewSchema.shape.blockNumber,
  explorer: transactionViewSchema.shape.explorer,
  confirmations: z.number().int(),
  transaction: transactionViewSchema.extend({ confirmations: z.number().int() }),
})

export type GetTransactionReturnType = z.infer<typeof transactionAnswerSchema>

/** A transaction as an explorer page shows it: what it called, what it cost, what it emitted. */
export const transactionDetailsSchema = z.object({
  transaction: transactionViewSchema,
  /** The EVM call: its target (the address book's name for it), value in ETH and wei, calldata decoded. */
  call: z.object({
    to: out.address,
    contract: z.string().nullable(),
    value: out.decimal,
    valueWei: out.baseUnits,
    data: out.hex,
    decoded: decodedCallSchema.nullable(),
  }),
  /** Null until the transaction is mined. */
  block: z.object({ number: z.number().int(), timestamp: out.timestamp }).nullable(),
  receipt: z
    .object({
      status: z.enum(['success', 'reverted']),
      gasUsed: out.baseUnits,
      effectiveGasPrice: out.baseUnits.describe('wei per gas'),
      fee: out.decimal.describe('gasUsed × effectiveGasPrice, in ETH'),
    })
    .nullable(),
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
    .number()
    .int()
    .min(0)
    .max(120_000)
    .default(60_000)
    .describe('How long to wait at most, in ms (default 60000, at most 120000)'),
})

/** The transaction when it settled, or as it stands when the wait ran out (`final: false`). */
export const waitForTransactionAnswerSchema = transactionAnswerSchema.extend({ final: z.boolean() })

import type { Address, Hex } from 'viem'
import type { StoredEffects } from '../effects/types.js'
import type { IntentAsset, PolicyIntent, UsdPrice } from '../intents/types.js'
import type { PolicyDecisionKind } from '../policy/types.js'
import type { CarrierName } from './carrier.js'
import { transactionStatuses } from './transactionSchemas.js'

/**
 * The lifecycle of an intent. `queued` with a `rawTx` means signed but not yet known to be
 * broadcast; the tracker and the reconciler rebroadcast exactly that raw transaction.
 */
export type TransactionStatus = TransactionRecord['status']

// The contract lists the statuses a client sees (it cannot import this file): each is a record's.
transactionStatuses satisfies readonly TransactionStatus[]

export const finalStatuses: readonly TransactionStatus[] = [
  'rejected',
  'expired',
  'blocked',
  'confirmed',
  'failed',
]

/** What every transaction record carries, whatever its status. */
type TransactionBase = {
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
  /** What the EVM transaction carries (authorizations make it an EIP-7702 transaction). */
  call: {
    to: Address
    value: string
    data?: Hex | undefined
    authorizationList?: StoredAuthorization[] | undefined
  }
  /**
   * A batch's calls, in order, `call` among them (`IntentDraft.calls`): carried by one user operation
   * of a smart wallet, all or none. Absent: `call` alone.
   */
  calls?: { to: Address; value: string; data?: Hex | undefined }[] | undefined
  /**
   * What the intent was judged to do to the paying account (`from`, or `via`), each outflow with its
   * USD value when a USD rule valued it: window totals count later intents by these. Absent on a
   * record made before effects were judged.
   */
  effects?: StoredEffects | undefined
  policy: {
    decision: PolicyDecisionKind
    ruleId?: string | undefined
    ruleType?: string | undefined
    reason: string
    details?: Record<string, unknown> | undefined
  }
  approvalId?: string | undefined
  /**
   * Who takes it to the chain (`carrierOf`): the wallet's `lane`, a `user_operation` of a smart
   * wallet's session account, or the x402 `payee`. Chosen once, when the intent is made
   * (`carrierFor`). Records made before every record named it carry only `user_operation`.
   */
  carriedBy?: CarrierName | undefined
  /** The carrying op once signed (durable before the bundler has it): re-sent as is, never signed anew. */
  userOperation?: StoredUserOperation | undefined
  /** Free-form context of higher-level actions (swap quote, ENS name, Safe tx hash). */
  meta?: Record<string, unknown> | undefined
  createdAt: string
  updatedAt: string
  /**
   * A fresh id per write of the record (`withWriteIds`): two reads with the same one hold the same
   * record. Absent on records written before it was kept.
   */
  writeId?: string | undefined
}

/**
 * A signed user operation as stored: its hash, EntryPoint and the op itself with every number a
 * decimal string (`toStoredUserOperation` / `fromStoredUserOperation`).
 */
export type StoredUserOperation = {
  hash: Hex
  entryPoint: Address
  sender: Address
  op: Record<string, string>
}

/** A signed EIP-7702 authorization, as stored (JSON-safe: numbers, hex). */
export type StoredAuthorization = {
  address: Address
  chainId: number
  nonce: number
  r: Hex
  s: Hex
  yParity: number
}

/** EIP-1559 gas of a signature, as decimal strings. */
export type GasSettings = { limit: string; maxFeePerGas: string; maxPriorityFeePerGas: string }

/** What signing adds: the nonce, fees, raw bytes and hash, and earlier signatures it replaced. */
export type Signature = {
  nonce: number
  gas: GasSettings
  rawTx: Hex
  hash: Hex
  /**
   * Earlier signatures of this intent at the same nonce, replaced with higher fees while stuck
   * (oldest first). Any of them may still be the one mined; then it becomes `hash` again.
   */
  replaced?: SignedVersion[] | undefined
  /** Set once the tracker stopped raising the fees of this unmined tx; a new signature clears it. */
  stuck?: TxStuck | undefined
  /**
   * This signature cancels the intent: a zero-value transfer to the wallet itself at the intent's
   * nonce (`cancelTransaction`). Mined, the intent ends `failed` (`cancelled`); its call never ran.
   */
  cancels?: true | undefined
}

/**
 * Why a submitted tx is left as it is although the chain asks more than it pays: the raise it needs
 * passes `maxFeeBumpMultiplier` times its first max fee, or the wallet cannot pay the raised fee.
 * Fees are wei per gas, decimal strings; `neededMaxFeePerGas` is what a replacement would have signed.
 */
export type TxStuck = {
  since: string
  reason: 'fee_cap_reached' | 'insufficient_funds'
  maxFeePerGas: string
  neededMaxFeePerGas: string
  capMaxFeePerGas: string
}

/** Fields a status does not have (so every field reads on the union, as undefined where absent). */
type Absent<Field extends string> = { [Key in Field]?: undefined }

type Unsigned = Absent<keyof Signature>
type Unmined = Absent<
  'blockNumber' | 'blockHash' | 'gasUsed' | 'confirmedAt' | 'finality' | 'finalizedAt' | 'receiptEffects'
>
type Unsent = Unmined & Absent<'submittedAt' | 'error'>

/** Waiting for an approver (`approvalId`); nothing signed. */
export type PendingApprovalTransaction = TransactionBase &
  Unsigned &
  Unsent & { status: 'pending_approval'; approvalId: string }

/** Ended before signing: refused by the policy, the approver, or the approval's deadline. */
export type ClosedTransaction = TransactionBase &
  Unsigned &
  Unsent & { status: 'blocked' | 'rejected' | 'expired' }

/** Accepted and reserved, not signed yet (a crash before signing, an approval, an x402 payment). */
export type UnsignedQueuedTransaction = TransactionBase & Unsigned & Unsent & { status: 'queued' }

/** Signed and durable, not yet known to be broadcast: the tracker rebroadcasts exactly these bytes. */
export type SignedQueuedTransaction = TransactionBase & Signature & Unsent & { status: 'queued' }

export type QueuedTransaction = UnsignedQueuedTransaction | SignedQueuedTransaction

/** The node took it (`submittedAt`: its last broadcast). */
export type SubmittedTransaction = TransactionBase &
  Signature &
  Unmined & { status: 'submitted'; submittedAt: string; error?: undefined }

/** A smart wallet's intent whose user operation the bundler took (`submittedAt`); no tx of its own. */
export type SubmittedUserOperation = TransactionBase &
  Unsigned &
  Unmined & {
    status: 'submitted'
    submittedAt: string
    error?: undefined
    userOperation: StoredUserOperation
  }

/**
 * Where a mined tx stands: `pending` while its block may still be reorganised away (the tracker
 * re-checks it), `finalized` once it is `finalityDepth` blocks deep on the canonical chain. A
 * record mined before blocks were checked has none: the tracker checks it once.
 */
export type Finality = 'pending' | 'finalized'

/** The block a receipt put the tx in (`blockHash` absent on records saved before it was kept). */
export type MinedIn = {
  blockNumber: number
  blockHash?: Hex | undefined
  gasUsed: string
  finality?: Finality | undefined
  /** When the tracker saw it `finalityDepth` blocks deep. */
  finalizedAt?: string | undefined
  /**
   * What it did, read from its receipt (`receiptEffects`: its logs and its top call's value); window
   * totals count the larger of these and the predicted `effects`. Absent for a revert and on
   * records mined before it was kept.
   */
  receiptEffects?: StoredEffects | undefined
}

/** Mined successfully: its block and gas used. */
export type MinedTransaction = TransactionBase &
  Signature &
  MinedIn & {
    status: 'confirmed'
    submittedAt: string
    confirmedAt: string
    error?: undefined
  }

/** Settled by its payee (an x402 payment): never signed as a tx here; `hash` is the settlement's, if told. */
export type SettledOffchainTransaction = TransactionBase &
  Absent<'nonce' | 'gas' | 'rawTx' | 'replaced' | 'stuck' | 'cancels'> &
  Absent<
    | 'blockNumber'
    | 'blockHash'
    | 'gasUsed'
    | 'finality'
    | 'finalizedAt'
    | 'receiptEffects'
    | 'submittedAt'
    | 'error'
  > & {
    status: 'confirmed'
    hash?: Hex | undefined
    confirmedAt: string
  }

/**
 * A smart wallet's intent whose user operation was included, as the chain tells it: `hash` and the
 * block are those of the transaction that carried the op, `gasUsed` / `gasCost` the op's own
 * (`actualGasUsed`, and `actualGasCost` in wei: what the session account paid) from its
 * `UserOperationEvent`, `receiptEffects` what its calls moved (the logs between its event and the
 * previous op's). Its nonce is the op's (`userOperation.op.nonce`); the wallet signed no tx.
 */
export type MinedUserOperation = TransactionBase &
  Absent<'nonce' | 'gas' | 'rawTx' | 'replaced' | 'stuck' | 'cancels'> &
  MinedIn & {
    status: 'confirmed'
    hash: Hex
    submittedAt: string
    confirmedAt: string
    error?: undefined
    userOperation: StoredUserOperation
    gasCost: string
  }

/**
 * A Solana transaction as signed, durable before it is sent (`solanaCarrier`): its wire bytes (sent,
 * and sent again while its blockhash lives), blockhash and `lastValidBlockHeight` (past it with no
 * status, it never lands), and the slot it landed in once the chain shows it.
 */
export type SolanaSigned = {
  wire: string
  blockhash: string
  lastValidBlockHeight: string
  slot?: string | undefined
}

/** Fields of a Solana record: `hash` is its signature (base58), typed `Hex` as the ledger's key. */
type SolanaSignature = Omit<Unsigned, 'hash'> & { hash: Hex; solana: SolanaSigned }

/** A Solana send signed and saved, sent (or about to be): the tracker asks its landing (`solanaLanding`). */
export type SubmittedSolanaTransaction = TransactionBase &
  SolanaSignature &
  Unmined & { status: 'submitted'; submittedAt: string; error?: undefined }

/** A Solana send the chain shows landed and succeeded: `confirmed` commitment (finality `pending`) or `finalized`. */
export type ConfirmedSolanaTransaction = TransactionBase &
  SolanaSignature &
  Absent<'blockNumber' | 'blockHash' | 'gasUsed' | 'receiptEffects'> & {
    status: 'confirmed'
    submittedAt: string
    confirmedAt: string
    finality: Finality
    finalizedAt?: string | undefined
    error?: undefined
  }

export type ConfirmedTransaction =
  | MinedTransaction
  | MinedUserOperation
  | SettledOffchainTransaction
  | ConfirmedSolanaTransaction

/** Ended without effect: refused by the node, reverted (with its block), or its payment refused. */
export type FailedTransaction = TransactionBase &
  Partial<Signature> & {
    status: 'failed'
    /** `reason`: the node's own words for a refusal ("nonce too low"), when it gave any. */
    error: { code: string; message: string; reason?: string | undefined }
    submittedAt?: string | undefined
    confirmedAt?: undefined
    /**
     * For a signed tx failed before a block: `false` while the chain has not yet shown its nonce used
     * by another tx, so it may still be mined (then the tracker makes it `confirmed`); `true` once it
     * has. Absent for a revert, an unsigned intent, and records written before it was kept.
     */
    nonceSettled?: boolean | undefined
    /** A Solana send's signature as sent (failed: landed with an error, or expired unseen). */
    solana?: SolanaSigned | undefined
  } & Partial<MinedIn>

/**
 * An intent, in one of its lifecycle's states; each status carries what it must
 * (see `transitions.ts` for the steps between them).
 */
export type TransactionRecord =
  | PendingApprovalTransaction
  | ClosedTransaction
  | QueuedTransaction
  | SubmittedTransaction
  | SubmittedUserOperation
  | SubmittedSolanaTransaction
  | ConfirmedTransaction
  | FailedTransaction

/** Any record but one waiting for its approver (a signed intent never goes back to waiting). */
export type UnpausedTransaction = Exclude<TransactionRecord, PendingApprovalTransaction>

/** A record carrying a signature: signed and queued, submitted, mined, or failed after signing. */
export type SignedTransaction = Extract<TransactionRecord, Signature> | (FailedTransaction & Signature)

/**
 * Whether the record carries a signature (its raw tx, hash, nonce and gas).
 * @example if (isSigned(record)) await broadcastSigned(ctx, chain, record)
 */
export function isSigned<Record extends TransactionRecord>(record: Record): record is Record & Signature {
  return record.rawTx !== undefined
}

/**
 * Whether the record is a submitted tx of the wallet's own (not a smart wallet's user operation).
 * @example if (!isSubmittedTransaction(record)) throw notPending(record, mode)
 */
export function isSubmittedTransaction(record: TransactionRecord): record is SubmittedTransaction {
  return record.status === 'submitted' && record.rawTx !== undefined
}

/**
 * Whether the record was mined successfully (not an x402 payment its payee settled).
 * @example if (!isMined(done)) throw stepFailed('ENS', 'commit', done)
 */
export function isMined(record: TransactionRecord): record is MinedTransaction {
  return record.status === 'confirmed' && record.blockNumber !== undefined && isSigned(record)
}

/**
 * Whether the record is a smart wallet's intent whose op the chain shows included (in a block).
 * @example if (isMinedUserOperation(record)) record.gasCost
 */
export function isMinedUserOperation(record: TransactionRecord): record is MinedUserOperation {
  return (
    record.status === 'confirmed' && record.blockNumber !== undefined && record.userOperation !== undefined
  )
}

/**
 * On chain and succeeded, with the hash of the tx that included it: the wallet's own mined tx, or the
 * relayer's tx that carried a smart wallet's user operation (its own gas and op, no nonce of the wallet's).
 */
export type IncludedTransaction = MinedTransaction | MinedUserOperation

/**
 * Whether the record was included on chain and succeeded: mined (`isMined`), or carried by a user
 * operation whose receipt confirmed it (`isMinedUserOperation`).
 * @example if (!isIncluded(done)) throw stepFailed('swap', record.step, done)
 */
export function isIncluded(record: TransactionRecord): record is IncludedTransaction {
  return isMined(record) || isMinedUserOperation(record)
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
  gas: GasSettings
  /** When it was replaced. */
  replacedAt: string
  /** The call it carried, when kept (a refreshed deadline, a cancel's self-transfer differ). */
  call?: TransactionBase['call'] | undefined
  /** It was a cancel (see `Signature.cancels`). */
  cancels?: true | undefined
}

export type NonceRecord = { id: string; next: number }

import type { ChainHandle, ChainInfo, ChainProvider } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import type { Effects } from '../effects/types.js'
import { UnsupportedChainFamilyError } from '../errors/errors.js'
import type { IntentDraft, PolicyIntent } from '../intents/types.js'
import type { Filter, StorageReader, StorageTx, UnsyncedAccess } from '../storage/types.js'
import type { ChainFamily } from '../vault/types.js'
import type { WalletRecord } from '../wallets/types.js'
import type { Allocated } from './allocateNonce.js'
import type { MinedRecord } from './laneTransitions.js'
import type { Estimate } from './prepareGas.js'
import type {
  GasSettings,
  MinedUserOperation,
  TransactionRecord,
  UnpausedTransaction,
  UnsignedQueuedTransaction,
} from './types.js'

/**
 * Who takes a record's transaction to the chain: the wallet's own broadcast `lane` (an EOA's signed
 * tx), a `user_operation` the tenant's relayer carries (a smart wallet's), or the `payee` who settles
 * the wallet's signed authorization (an x402 payment), or `solana`: a Solana wallet's signed
 * transaction. Chosen once, when the intent is made (`carrierFor`), and kept on the record as `carriedBy`.
 */
export type CarrierName = 'lane' | 'user_operation' | 'payee' | 'solana'

/** What a carrier starts before the wallet lock (a gas estimate), awaited under it. */
export type Ahead = { estimate?: Estimate | undefined }

/** What an intent the policy did not deny needs to go out: its gas (none where another party pays it) and, allowed, its nonce. */
export type Funding = { gas: GasSettings | undefined; allocated?: Promise<Allocated> | undefined }

/** The intent whose funds a carrier checks: what it pays, and the call it makes. */
export type FundedIntent = Pick<PolicyIntent, 'asset' | 'via'> & {
  amount: bigint | string
  call: TransactionRecord['call']
}

/** How a judged intent is written (`commitIntent`): `insert` when new, `put` when saved earlier (approved). */
export type CommitOptions = {
  write: 'insert' | 'put'
  /** What the caller writes in the same commit: its approval, idempotency record, events. */
  alongside?: ((tx: StorageTx, saved: TransactionRecord) => Promise<void>) | undefined
  /** The nonce `fund` read under the same lock (the lane's). */
  allocated?: Promise<Allocated> | undefined
  /**
   * The storage's unsynced commit, for a caller that lets the wallet lock go before the commit is on
   * disk: the carrier then takes nothing out (no broadcast) before `synced`.
   */
  unsynced?: UnsyncedAccess | undefined
}

/** The intent as saved and, for one its carrier takes on at once, that work under way (awaited unlocked). */
export type Committed = { record: TransactionRecord; sending?: Promise<UnpausedTransaction> | undefined }

/** One tracker pass's open records of one carrier (read at the pass's start), and the pass's bounds. */
export type TrackPass = {
  queued: readonly TransactionRecord[]
  submitted: readonly TransactionRecord[]
  /** A record last written at or before this time (ms) is stale: its answer may have been lost. */
  staleBefore: number
  /** Start-up reconciliation: every record, however fresh; legacy records checked once. */
  all: boolean
  /** The chains this pass tracks (the ones this process leads). */
  chains?: readonly string[] | undefined
  where: Filter
}

/** A record on chain the tracker follows to finality: a wallet's own mined tx, or an included user operation. */
export type Watched = MinedRecord | MinedUserOperation

/**
 * A way to the chain. The money path asks the record's carrier at each step (`carrierOf`) and never
 * tests what kind of wallet it serves; a new kind of wallet is a new carrier, registered on the
 * context by the composition root (`ctx.carriers`). `Chain` is the handle of the family it carries
 * on (an EVM `ChainHandle`, a `SolanaChainHandle`): the carrier reads it (`chainOf`), the shared
 * money path only hands it back.
 */
export type Carrier<Chain extends ChainInfo = ChainHandle> = {
  readonly name: CarrierName
  /** Carries several calls as one intent, all or none (`IntentDraft.calls`): a smart wallet's user operation. */
  readonly batches: boolean
  /** The chain `name` as this carrier reads it (`unsupported_chain_family` for another family's). */
  chainOf(chains: ChainProvider, name: string): Chain
  /**
   * What the draft will do to the paying account, started before the wallet lock and awaited under
   * it (a node that does not answer rejects when awaited): what the policy judges.
   */
  effects(ctx: AgentWalletContext, chain: Chain, wallet: WalletRecord, draft: IntentDraft): Promise<Effects>
  /** Work that needs no lock, started while the send waits for the wallet's (a gas estimate; a smart wallet readied). */
  ahead(ctx: AgentWalletContext, chain: Chain, wallet: WalletRecord, draft: IntentDraft): Promise<Ahead>
  /**
   * Under the wallet lock, for an intent the policy did not deny: checks the wallet can pay
   * (`insufficient_funds` thrown), with the gas it signs with and, when `allow`, its nonce.
   */
  fund(
    ctx: AgentWalletContext,
    chain: Chain,
    wallet: Pick<WalletRecord, 'address'>,
    intent: FundedIntent,
    options: {
      allow: boolean
      ahead?: Ahead | undefined
      /** Where the nonce is read (default the storage): `Storage.unsynced` under the lock of a send. */
      reader?: StorageReader | undefined
    },
  ): Promise<Funding>
  /** Saves an accepted intent in one commit with what the caller writes beside it, and starts taking it out. */
  commit(
    ctx: AgentWalletContext,
    chain: Chain,
    record: UnsignedQueuedTransaction,
    gas: GasSettings | undefined,
    options: CommitOptions,
  ): Promise<Committed>
  /** The tracker's pass over this carrier's open records: receipts, resends, what a crash left. */
  track(ctx: AgentWalletContext, pass: TrackPass): Promise<void>
  /** Records whose block left the canonical chain (a reorg), on one chain: taken back to `submitted`. */
  reorged(ctx: AgentWalletContext, chain: Chain, records: readonly Watched[]): Promise<void>
  /** Waits for the work it holds in memory (broadcasts under way); `close` calls it. */
  settle(): Promise<void>
}

/** A carrier of any family, as the shared money path holds it: the chain it reads is handed back to it. */
export type AnyCarrier = Carrier<ChainInfo>

/**
 * The carriers of a context, by name; `solana` where the context serves Solana chains (a context
 * without it refuses a Solana wallet's intent with `unsupported_chain_family`).
 */
export type Carriers = {
  readonly lane: Carrier
  readonly user_operation: Carrier
  readonly payee: Carrier
  readonly solana?: AnyCarrier | undefined
}

/** The carrier of each chain family's every intent, where one family has one way to the chain. */
const familyCarrier: { readonly [Family in ChainFamily]: CarrierName | undefined } = {
  evm: undefined,
  solana: 'solana',
}

/**
 * The one choice of a carrier, made when an intent is made: a family with one way to the chain
 * (`solana`) has its carrier; on EVM an x402 payment is settled by its payee, any other intent of a
 * smart wallet is carried by a user operation, and the rest go out in the wallet's lane.
 * @example const record = { ...base, carriedBy: carrierFor(wallet, draft.kind, family) }
 */
export function carrierFor(
  wallet: Pick<WalletRecord, 'kind'>,
  kind: TransactionRecord['kind'],
  family: ChainFamily = 'evm',
): CarrierName {
  const own = familyCarrier[family]
  if (own) return own
  if (kind === 'x402_payment') return 'payee'
  return wallet.kind === 'smart' ? 'user_operation' : 'lane'
}

/**
 * The carrier named `name` on this context: `unsupported_chain_family` when the context has none
 * (a Solana carrier on a context built without one).
 * @example const carrier = carrierNamed(ctx, carrierFor(wallet, draft.kind, family))
 */
export function carrierNamed(ctx: Pick<AgentWalletContext, 'carriers'>, name: CarrierName): AnyCarrier {
  const carrier = ctx.carriers[name]
  if (!carrier) {
    throw new UnsupportedChainFamilyError(`This service carries no ${name} transactions`, {
      details: { carrier: name },
    })
  }
  return carrier as AnyCarrier
}

/**
 * The carrier of a stored record. Records made before every record named its carrier have
 * `carriedBy` only when a user operation carried them.
 * @example await carrierOf(ctx, record).commit(ctx, chain, record, gas, options)
 */
export function carrierOf(ctx: Pick<AgentWalletContext, 'carriers'>, record: TransactionRecord): AnyCarrier {
  return carrierNamed(ctx, carrierNameOf(record))
}

/** The name of a stored record's carrier (see `carrierOf`). */
export function carrierNameOf(record: Pick<TransactionRecord, 'carriedBy' | 'kind'>): CarrierName {
  return record.carriedBy ?? (record.kind === 'x402_payment' ? 'payee' : 'lane')
}

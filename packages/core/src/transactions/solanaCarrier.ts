import type { Base64EncodedWireTransaction } from '@solana/kit'
import type { Hex } from 'viem'
import type { SolanaChainHandle, SolanaMint } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { UnsupportedChainFamilyError } from '../errors/errors.js'
import { appendEvent } from '../events/appendEvent.js'
import type { IntentDraft } from '../intents/types.js'
import { predictSolanaEffects } from '../solana/predictSolanaEffects.js'
import { readSolanaBalance } from '../solana/readSolanaBalance.js'
import { signSolanaTransaction } from '../solana/signSolanaTransaction.js'
import { solanaChainOf } from '../solana/solanaChainOf.js'
import { type SolanaLanding, solanaLanding } from '../solana/solanaLanding.js'
import { solanaSendInstructions } from '../solana/solanaSendInstructions.js'
import { toSolanaChainError } from '../solana/toSolanaChainError.js'
import { vaultTransactionSigner } from '../solana/vaultTransactionSigner.js'
import type { StorageTx } from '../storage/types.js'
import type { Carrier, TrackPass } from './carrier.js'
import { txPayload, writeFailed } from './transitions.js'
import type {
  ConfirmedSolanaTransaction,
  SubmittedSolanaTransaction,
  TransactionRecord,
  UnpausedTransaction,
  UnsignedQueuedTransaction,
} from './types.js'

/** What one signature costs (lamports): the base fee a send's funds must leave room for. */
const signatureFee = 5_000n

/**
 * A Solana wallet's send (a SOL transfer, or an SPL `transferChecked`): its effects decoded and
 * checked against a simulation (`predictSolanaEffects`) are what the policy judges. Accepted, it is
 * signed with the vault's Ed25519 key under the latest blockhash and saved — wire bytes, signature (the
 * record's `hash`) and `lastValidBlockHeight` — in the intent's own commit, BEFORE it is sent: a crash
 * after the commit leaves bytes the tracker sends again. The tracker asks each open one's landing
 * (`solanaLanding`): the same bytes again while `pending`, `confirmed`/`finalized` as the chain says,
 * `failed` when it landed with an error, and failed as expired only once its blockhash expired unseen.
 * It has no reorg of its own to follow (its finality is the chain's commitment).
 * @example const ctx = { ...rest, carriers: { lane, user_operation, payee, solana: solanaCarrier } }
 */
export const solanaCarrier: Carrier<SolanaChainHandle> = {
  name: 'solana',
  batches: false,
  chainOf: (chains, name) => solanaChainOf(chains, name),
  async effects(ctx, chain, wallet, draft) {
    const payer = await payerOf(ctx, wallet.address)
    const instructions = await solanaSendInstructions(chain, payer, sendOf(draft))
    // Signed only to be simulated (no signature checked): what is sent is signed again when accepted.
    const signed = await signSolanaTransaction(chain, payer, instructions)
    return predictSolanaEffects(chain, wallet.address, instructions, signed)
  },
  ahead: async () => ({}),
  async fund(_ctx, chain, wallet, intent) {
    const amount = BigInt(intent.amount)
    const balance = await readSolanaBalance(chain, wallet.address).catch((error: unknown) => {
      throw toSolanaChainError(error, chain.name)
    })
    const mint = intent.asset.address === 'native' ? undefined : intent.asset.address
    const needs = mint ? signatureFee : amount + signatureFee
    if (balance.lamports < needs) throw insufficient(chain, 'native', balance.lamports, needs)
    if (mint) {
      const held = balance.tokens.find((token) => token.mint === mint)?.raw ?? 0n
      if (held < amount) throw insufficient(chain, mint, held, amount)
    }
    return { gas: undefined }
  },
  async commit(ctx, chain, record, _gas, options) {
    const payer = await payerOf(ctx, record.from)
    const instructions = await solanaSendInstructions(chain, payer, sendOfRecord(record))
    const signed = await signSolanaTransaction(chain, payer, instructions)
    const now = ctx.now().toISOString()
    const saved: SubmittedSolanaTransaction = {
      ...record,
      status: 'submitted',
      hash: signed.signature as Hex,
      solana: {
        wire: signed.wire,
        blockhash: signed.blockhash,
        lastValidBlockHeight: signed.lastValidBlockHeight.toString(),
      },
      submittedAt: now,
      updatedAt: now,
    }
    const save = async (tx: StorageTx) => {
      await tx[options.write]('transactions', saved)
      await options.alongside?.(tx, saved)
      appendEvent(ctx, tx, saved.tenantId, 'tx.submitted', txPayload(saved))
    }
    // Durable first: the bytes are on disk before the chain can see them.
    let synced: Promise<void> | undefined
    if (options.unsynced) ({ synced } = await options.unsynced.commit(save))
    else await ctx.storage.transaction([], save)
    const sending = (async (): Promise<UnpausedTransaction> => {
      await synced
      // A refusal or a lost answer leaves it `submitted`: the tracker sends it again until it lands or expires.
      await sendWire(chain, saved.solana.wire).catch(() => undefined)
      return saved
    })()
    return { record: saved, sending }
  },
  track: (ctx, pass) => trackSolana(ctx, pass),
  reorged: async () => undefined,
  settle: async () => undefined,
}

async function payerOf(ctx: AgentWalletContext, owner: string) {
  const keys = ctx.vault.ed25519
  if (!keys) {
    throw new UnsupportedChainFamilyError('This vault holds no Ed25519 keys: it cannot sign for Solana', {
      details: { families: ['evm'] },
    })
  }
  return vaultTransactionSigner(await keys.getSigner(owner))
}

/** The send a draft stands for: its recipient, amount and mint (none for SOL). */
function sendOf(draft: Pick<IntentDraft, 'to' | 'amount' | 'asset'>) {
  return { to: draft.to, amount: draft.amount, mint: mintOf(draft.asset) }
}

function sendOfRecord(record: UnsignedQueuedTransaction) {
  return { to: record.to, amount: BigInt(record.amount), mint: mintOf(record.asset) }
}

function mintOf(asset: IntentDraft['asset']): SolanaMint | undefined {
  if (asset.address === 'native') return undefined
  return { address: asset.address, symbol: asset.symbol, decimals: asset.decimals }
}

function insufficient(chain: SolanaChainHandle, asset: string, held: bigint, needed: bigint): BaseError {
  return new BaseError(
    'insufficient_funds',
    asset === 'native'
      ? 'The wallet cannot pay the SOL it sends plus the fee'
      : 'The wallet holds less of the token than the send pays',
    { details: { chain: chain.name, asset, balance: held.toString(), required: needed.toString() } },
  )
}

async function sendWire(chain: SolanaChainHandle, wire: string): Promise<void> {
  await chain.rpc
    .sendTransaction(wire as Base64EncodedWireTransaction, { encoding: 'base64', skipPreflight: true })
    .send()
}

/**
 * The tracker's pass over Solana records: each submitted one's landing, and each confirmed one not
 * yet finalized (the chain's `finalized` commitment makes it final). A node that does not answer
 * leaves the record as it is: unknown is not failed.
 */
async function trackSolana(ctx: AgentWalletContext, pass: TrackPass): Promise<void> {
  const unfinal = await ctx.storage.query('transactions', {
    where: { finality: 'pending', ...pass.where },
    orderBy: 'createdAt',
    limit: 1000,
  })
  const open = [...pass.submitted, ...unfinal].filter(isOpenSolana)
  await Promise.all(
    open.map((record) => trackOne(ctx, record, pass).catch(() => undefined /* the next pass asks again */)),
  )
}

/** A Solana send sent and not final: submitted, or confirmed below `finalized`. */
type OpenSolana = SubmittedSolanaTransaction | ConfirmedSolanaTransaction

function isOpenSolana(record: TransactionRecord): record is OpenSolana {
  return (
    (record.status === 'submitted' || record.status === 'confirmed') && 'solana' in record && !!record.solana
  )
}

async function trackOne(ctx: AgentWalletContext, record: OpenSolana, pass: TrackPass): Promise<void> {
  const signed = record.solana
  const chain = solanaChainOf(ctx.chains, record.chain)
  const landing = await solanaLanding(chain, record.hash, BigInt(signed.lastValidBlockHeight))
  if (landing.state === 'pending') {
    // Still may land: the same bytes again, once its last send is stale (or at start-up).
    if (record.status === 'submitted' && (pass.all || Date.parse(record.updatedAt) <= pass.staleBefore)) {
      await sendWire(chain, signed.wire).catch(() => undefined)
      await writeIfUnchanged(ctx, record, (tx) =>
        tx.put('transactions', { ...record, updatedAt: ctx.now().toISOString() }),
      )
    }
    return
  }
  await writeIfUnchanged(ctx, record, (tx) => writeLanding(ctx, tx, record, landing))
}

/** Writes what the landing says of a record, in `tx`: confirmed (finality), failed (landed with an error, or expired). */
async function writeLanding(
  ctx: AgentWalletContext,
  tx: StorageTx,
  record: OpenSolana,
  landing: Exclude<SolanaLanding, { state: 'pending' }>,
): Promise<void> {
  const now = ctx.now().toISOString()
  if (landing.state === 'expired') {
    if (record.status !== 'submitted') return
    const error = new BaseError(
      'transaction_failed',
      'The transaction expired unseen: the chain passed its last valid block height',
      { details: { reason: 'blockhash_expired', blockHeight: landing.blockHeight.toString() } },
    )
    await writeFailed(ctx, tx, record, error)
    return
  }
  if (landing.status === 'submitted') return
  const solana = { ...record.solana, slot: landing.slot.toString() }
  if (landing.status === 'failed') {
    if (record.status !== 'submitted') return
    const error = new BaseError('transaction_failed', 'The transaction landed and failed', {
      details: { reason: landing.error },
    })
    await writeFailed(ctx, tx, { ...record, solana }, error)
    return
  }
  const finalizedAt = landing.finality === 'finalized' ? { finalizedAt: now } : {}
  if (record.status === 'confirmed') {
    if (landing.finality === 'finalized') {
      await tx.put('transactions', { ...record, finality: 'finalized', ...finalizedAt, updatedAt: now })
    }
    return
  }
  const confirmed: ConfirmedSolanaTransaction = {
    ...record,
    status: 'confirmed',
    solana,
    confirmedAt: now,
    finality: landing.finality,
    ...finalizedAt,
    updatedAt: now,
  }
  await tx.put('transactions', confirmed)
  appendEvent(ctx, tx, confirmed.tenantId, 'tx.confirmed', {
    ...txPayload(confirmed),
    blockNumber: Number(landing.slot),
  })
}

/** Writes in one commit only if the record is still as read (a request or another pass may have moved it). */
async function writeIfUnchanged(
  ctx: AgentWalletContext,
  record: TransactionRecord,
  write: (tx: StorageTx) => Promise<unknown>,
): Promise<void> {
  await ctx.storage.transaction([], async (tx) => {
    const current = await tx.get('transactions', record.id)
    if (current?.status !== record.status || current.updatedAt !== record.updatedAt) return
    await write(tx)
  })
}

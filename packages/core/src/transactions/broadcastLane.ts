import type { Address } from 'viem'
import { isTransportError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { walletLockKey, withLock } from '../storage/withLock.js'
import { nonceIdOf } from './allocateNonce.js'
import type { InFlight } from './prepareGas.js'
import { spendOf } from './prepareGas.js'
import { broadcastSigned, type Signing } from './signAndBroadcast.js'
import { markSubmitted } from './submittedBatch.js'
import { isSigned, type UnpausedTransaction } from './types.js'

/** A signed tx waiting in its wallet's lane, with what it will spend once the node has it. */
type Entry = { native: bigint; token?: { key: string; amount: bigint } | undefined }

/**
 * One wallet's broadcasts on one chain, in nonce order: the tail to chain onto, and who waits.
 * `undelivered`: a tx of this lane was left signed and queued (no answer, a rate limit), so a later
 * one may be refused for that gap until the tracker sends it.
 */
type Lane = { tail: Promise<unknown>; waiting: Set<Entry>; undelivered: boolean }

/** A lane per (chain, address): the same key as the nonces it carries (`nonceIdOf`). */
const laneKey = nonceIdOf

/** The lanes of one context (its lane carrier's): what each wallet has waiting for the node, in nonce order. */
export type BroadcastLanes = {
  /**
   * Broadcasts a signed tx after the ones this context signed before it for the same wallet and
   * chain, in nonce order. The caller holds the wallet lock, has committed the tx (`saveSigned`; if
   * not yet on disk, the broadcast waits for `synced`), and awaits the answer only after releasing the lock: so the wallet's next send is evaluated,
   * signed and committed while this one goes to the node, and one wallet's sends pipeline. Never
   * await it while holding the lock: a refusal is worked out under the lock (`broadcastSigned`).
   */
  enqueue(
    ctx: AgentWalletContext,
    chain: ChainHandle,
    signing: Signing,
    synced?: Promise<void>,
  ): Promise<UnpausedTransaction>
  /**
   * What the wallet's txs waiting in its lane will spend: the node's balance does not show them
   * yet, so the funds check of the next send counts them. The caller holds the wallet lock.
   */
  inFlight(chainId: number, address: Address): InFlight
  /** Waits until every lane is empty; `close` calls it before it settles the batches. */
  settle(): Promise<void>
}

/**
 * A context's broadcast lanes, kept by its lane carrier (never shared by two AgentWallets in one process).
 * @example const lanes = broadcastLanes(); const sending = lanes.enqueue(ctx, chain, signing)
 */
export function broadcastLanes(): BroadcastLanes {
  const lanes = new Map<string, Lane>()
  return {
    enqueue(ctx, chain, signing, synced) {
      const key = laneKey(chain.chainId, signing.signed.from)
      const lane = lanes.get(key) ?? {
        tail: Promise.resolve(),
        waiting: new Set<Entry>(),
        undelivered: false,
      }
      lanes.set(key, lane)
      const spend = spendOf(signing.signed)
      const entry: Entry = {
        native: spend.native,
        token: spend.token && { key: spend.token.token.toLowerCase(), amount: spend.token.amount },
      }
      lane.waiting.add(entry)
      // Never before the signed tx is on disk: a crash must not lose a tx the node has.
      const sent = Promise.all([lane.tail, synced])
        .then(() => broadcastInLane(ctx, chain, signing, lane))
        .finally(() => lane.waiting.delete(entry))
      const tail = sent.catch(() => undefined)
      lane.tail = tail
      // The last one out leaves no lane behind.
      void tail.then(() => {
        if (lanes.get(key)?.tail === tail) lanes.delete(key)
      })
      return sent
    },
    inFlight(chainId, address) {
      const tokens = new Map<string, bigint>()
      let native = 0n
      for (const entry of lanes.get(laneKey(chainId, address))?.waiting ?? []) {
        native += entry.native
        if (entry.token) tokens.set(entry.token.key, (tokens.get(entry.token.key) ?? 0n) + entry.token.amount)
      }
      return { native, tokens }
    },
    async settle() {
      while (lanes.size > 0) await Promise.all([...lanes.values()].map((lane) => lane.tail))
    },
  }
}

/**
 * The happy path needs no lock: the node takes the tx, and the submitted status goes in the next
 * batch. A transport error leaves it signed and queued, for the tracker (or the next refusal's
 * `sendOwed`). Any other answer is worked out under the wallet lock by `broadcastSigned`, which asks
 * the node again, sends owed lower nonces first, and fails the tx with its nonce freed or filled.
 */
async function broadcastInLane(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  { signed }: Signing,
  lane: Lane,
): Promise<UnpausedTransaction> {
  const sent = await sendInLane(ctx, chain, signed, lane.undelivered)
  if (sent.status === 'queued') lane.undelivered = true
  return sent
}

async function sendInLane(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  signed: Signing['signed'],
  gapBelow: boolean,
): Promise<UnpausedTransaction> {
  let refusal: unknown
  try {
    await chain.client.sendRawTransaction({ serializedTransaction: signed.rawTx })
    return markSubmitted(ctx, signed)
  } catch (error) {
    if (isTransportError(error)) return signed
    refusal = error
  }
  return withLock(ctx.storage, [walletLockKey(signed.from)], async () => {
    const current = await ctx.storage.get('transactions', signed.id)
    // Moved on meanwhile (another replica's `sendOwed` broadcast it, or the tracker did).
    if (!current || current.status === 'pending_approval') return signed
    if (current.status !== 'queued' || !isSigned(current) || current.hash !== signed.hash) return current
    // A lower nonce of this lane went undelivered: the refusal may be that gap, which the tracker may
    // have closed before the lock was ours. Sent again under the lock, its answer is current.
    return broadcastSigned(ctx, chain, current, gapBelow ? {} : { refused: { error: refusal } })
  })
}

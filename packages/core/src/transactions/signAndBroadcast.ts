import { type Hex, keccak256, TransactionNotFoundError } from 'viem'
import { appendAudit } from '../audit/appendAudit.js'
import { isRefusal } from '../chain/isRefusal.js'
import { isTransportError, toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import type { BaseError } from '../errors/baseError.js'
import type { StorageTx } from '../storage/types.js'
import { type Allocated, allocateNonce, nonceIdOf } from './allocateNonce.js'
import { nonceFiller } from './fillNonce.js'
import { nextNonceFromNode } from './nextNonceFromNode.js'
import { markSubmitted } from './submittedBatch.js'
import { transactionRequest } from './transactionRequest.js'
import { writeFailed } from './transitions.js'
import type { GasSettings } from './types.js'
import {
  isSigned,
  type SignedQueuedTransaction,
  type SubmittedTransaction,
  type UnpausedTransaction,
  type UnsignedQueuedTransaction,
} from './types.js'

/** A tx signed in memory, with the nonce slot it takes: durable only once `saveSigned` commits. */
export type Signing = { signed: SignedQueuedTransaction; nonceId: string }

/**
 * queued → signed, in memory: allocates the nonce (or takes the allocation the caller started under
 * the same lock, `allocated`) and signs through the vault. The caller holds the wallet lock and
 * commits the raw tx, its hash and the nonce together (`saveSigned`) before any broadcast.
 */
export async function signRecord(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: UnsignedQueuedTransaction,
  gas: GasSettings,
  allocated: Promise<Allocated> = allocateNonce(ctx, chain, record.from),
): Promise<Signing> {
  const { nonceId, nonce } = await allocated
  const signer = await ctx.vault.getSigner(record.from)
  const rawTx = await signer.signTransaction(
    transactionRequest(chain, record.call, {
      nonce,
      gas: BigInt(gas.limit),
      maxFeePerGas: BigInt(gas.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(gas.maxPriorityFeePerGas),
    }),
  )
  const signed: SignedQueuedTransaction = {
    ...record,
    nonce,
    gas,
    rawTx,
    hash: keccak256(rawTx),
    updatedAt: ctx.now().toISOString(),
  }
  return { signed, nonceId }
}

/**
 * Writes the signed tx and its wallet's next nonce in `tx` (`insert` for a tx not saved before), with
 * the vault's signature in the audit trail (what was signed, for which intent).
 */
export async function saveSigned(
  ctx: AgentWalletContext,
  tx: StorageTx,
  { signed, nonceId }: Signing,
  write: 'insert' | 'put' = 'put',
): Promise<void> {
  await tx[write]('transactions', signed)
  await tx.put('nonces', { id: nonceId, next: signed.nonce + 1 })
  appendAudit(ctx, tx, signed.tenantId, {
    kind: 'vault.signature',
    subjects: { walletId: signed.walletId, transactionId: signed.id, keyId: signed.from },
    payload: { signed: 'transaction', hash: signed.hash, chainId: signed.chainId, nonce: signed.nonce },
  })
}

/**
 * queued → signed → submitted for an intent saved earlier (approved, or accepted before a crash).
 * Signs, commits the raw tx with the nonce, and only then broadcasts: a crash after the commit leaves
 * a tx the reconciler rebroadcasts as is, never one signed again with another nonce.
 * The caller holds the wallet lock.
 */
export async function signAndBroadcast(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: UnsignedQueuedTransaction,
  gas: GasSettings,
): Promise<UnpausedTransaction> {
  const signing = await signRecord(ctx, chain, record, gas)
  await ctx.storage.transaction([], (tx) => saveSigned(ctx, tx, signing))
  return broadcastSigned(ctx, chain, signing.signed)
}

type BroadcastOptions = {
  /** Lower nonces owed were sent already: a second refusal is final. */
  owedSent?: boolean | undefined
  /** This tx fills a refused one's nonce: its own refusal is not filled again. */
  filler?: boolean | undefined
  /** The node's refusal of this very attempt, met outside the lock (the wallet's lane): not sent again. */
  refused?: { error: unknown } | undefined
}

/**
 * Sends a persisted raw tx. A transport failure, or an answer that says nothing about the tx (a rate
 * limit, an internal error), leaves it signed for the tracker; only a definite refusal (`isRefusal`)
 * of a tx the node then says it does not know fails it (`failSigned`: its nonce is freed or filled),
 * unless the refusal came from a lower nonce we still owe the node: those go first, then this again.
 * The caller holds the wallet lock.
 */
export async function broadcastSigned(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: SignedQueuedTransaction,
  options: BroadcastOptions = {},
): Promise<UnpausedTransaction> {
  try {
    if (options.refused) throw options.refused.error
    await chain.client.sendRawTransaction({ serializedTransaction: record.rawTx })
    return markSubmitted(ctx, record)
  } catch (error) {
    if (isTransportError(error)) return record
    // "Already known" and "nonce too low" for our own mined tx are both fine: ask the node.
    const known = await nodeKnows(chain, record.hash)
    if (known) return markSubmitted(ctx, record)
    // The answer was lost (a rate limit, an internal error) or the node could not say whether it has
    // the tx: it may, so it is not failed and its nonce is neither freed nor filled. It stays signed
    // and queued, and the tracker asks the chain (docs/money-path.md, "What the chain may do").
    if (known === undefined || !isRefusal(error)) return record
    if (!options.owedSent) {
      const owed = await sendOwed(ctx, chain, record)
      // A lower nonce of ours the node still lacks (its send met a rate limit, a node away): the
      // refusal may be that gap ("nonce too high"), not this tx. It waits, signed, for the tracker.
      if (owed === 'undelivered') return record
      if (owed === 'delivered')
        return broadcastSigned(ctx, chain, record, { ...options, owedSent: true, refused: undefined })
    }
    return failSigned(ctx, chain, record, toChainError(error, chain.name), options)
  }
}

/**
 * Fails a signed tx the node refused and does not know, leaving no hole in the wallet's nonces: the
 * newest nonce goes back to the next send; one below later signed txs (a pipelined burst, another
 * replica's send) gets a zero-value filler (`nonceFiller`), saved with the failure in one commit and
 * then broadcast, so a crash between them leaves it owed, and rebroadcast. A filler that is itself
 * refused is not filled again. A nonce above the node's count leaves no hole of ours to fill: the
 * next nonce is re-derived from the node (`nextNonceFromNode`). When the node cannot be asked, the
 * tx stays as it was (signed, queued) for the tracker to try again. The caller holds the wallet lock.
 * @example return failSigned(ctx, chain, record, toChainError(error, chain.name))
 */
export async function failSigned(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: SignedQueuedTransaction | SubmittedTransaction,
  error: BaseError,
  options: { filler?: boolean } = {},
): Promise<UnpausedTransaction> {
  const nonceId = nonceIdOf(chain.chainId, record.from)
  const { nonce } = record
  const stored = await ctx.storage.get('nonces', nonceId)
  const followed = (stored?.next ?? 0) > nonce + 1
  // Above the node's count ("nonce too high", known by asking the node, not by the error's text): our
  // next nonce ran ahead of the chain (a reorg, a tx the node lost). No filler could be mined there;
  // the next nonce is taken from the node again, so the wallet's next send can be.
  let ahead: number | undefined
  try {
    ahead = await nextNonceIfAhead(ctx, chain, record)
  } catch (cause) {
    if (isTransportError(cause)) return record
    throw cause
  }
  if (ahead !== undefined) {
    return ctx.storage.transaction([], async (tx) => {
      await tx.put('nonces', { id: nonceId, next: ahead })
      return writeFailed(ctx, tx, record, error)
    })
  }
  let filler: SignedQueuedTransaction | undefined
  if (followed && !options.filler) {
    try {
      filler = await nonceFiller(ctx, chain, record)
    } catch (cause) {
      // The node could not be asked (no answer, a rate limit): the tx stays as it was, for the tracker.
      if (toChainError(cause, chain.name, { read: true }).code === 'chain_unavailable') return record
      throw cause
    }
  }
  const failed = await ctx.storage.transaction([], async (tx) => {
    if (stored?.next === nonce + 1) await tx.put('nonces', { id: nonceId, next: nonce })
    if (filler) {
      await tx.insert('transactions', filler)
      appendAudit(ctx, tx, filler.tenantId, {
        kind: 'vault.signature',
        subjects: { walletId: filler.walletId, transactionId: filler.id, keyId: filler.from },
        payload: {
          signed: 'nonce_filler',
          hash: filler.hash,
          chainId: filler.chainId,
          nonce: filler.nonce,
          fills: record.id,
        },
      })
    }
    return writeFailed(ctx, tx, record, error)
  })
  if (filler) await broadcastSigned(ctx, chain, filler, { owedSent: true, filler: true })
  return failed
}

/** The next nonce re-derived from the node when `record`'s nonce is above its pending count, else undefined. */
async function nextNonceIfAhead(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: SignedQueuedTransaction | SubmittedTransaction,
): Promise<number | undefined> {
  const pending = await chain.client.getTransactionCount({ address: record.from, blockTag: 'pending' })
  if (record.nonce <= pending) return undefined
  return nextNonceFromNode(ctx, chain, record, { pending, excluding: record.id })
}

/**
 * Broadcasts, lowest nonce first, the signed txs of the same wallet and chain below `record`'s
 * nonce that the node has not been given: signed by a replica that died before broadcasting, or
 * met a transport error. A node that does not queue future nonces (an automining devnet) refuses
 * `record` until they are in. `none` when there were none; `undelivered` when one is still not
 * with the node (no answer again, or one that says nothing): the ones above it are not sent, since
 * the node would refuse them for the gap. The caller holds the wallet lock.
 */
async function sendOwed(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: SignedQueuedTransaction,
): Promise<'none' | 'delivered' | 'undelivered'> {
  const queued = await ctx.storage.query('transactions', {
    where: { walletId: record.walletId, status: 'queued' },
  })
  const owed = queued
    .filter((other): other is SignedQueuedTransaction => other.status === 'queued' && isSigned(other))
    .filter((other) => other.chain === record.chain && other.nonce < record.nonce)
    .sort((x, y) => x.nonce - y.nonce)
  for (const other of owed) {
    const sent = await broadcastSigned(ctx, chain, other, { owedSent: true })
    if (sent.status === 'queued') return 'undelivered'
  }
  return owed.length > 0 ? 'delivered' : 'none'
}

/**
 * Whether the node has the tx (pending or mined): undefined when it could not say (the read failed),
 * which is never taken for "no".
 */
function nodeKnows(chain: ChainHandle, hash: Hex): Promise<boolean | undefined> {
  return chain.client.getTransaction({ hash }).then(
    () => true,
    (error: unknown) => (error instanceof TransactionNotFoundError ? false : undefined),
  )
}

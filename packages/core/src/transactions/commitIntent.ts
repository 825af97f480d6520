import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { carryUserOperation } from '../smartWallets/carryUserOperation.js'
import type { StorageTx } from '../storage/types.js'
import type { Allocated } from './allocateNonce.js'
import { enqueueBroadcast } from './broadcastLane.js'
import { saveSigned, signRecord } from './signAndBroadcast.js'
import {
  type ClosedTransaction,
  type GasSettings,
  isCarried,
  isSettledOffchain,
  isSigned,
  type PendingApprovalTransaction,
  type TransactionRecord,
  type UnpausedTransaction,
  type UnsignedQueuedTransaction,
} from './types.js'

/** An intent as judged, before it is saved: paused, blocked, or accepted and not yet signed. */
export type JudgedTransaction = PendingApprovalTransaction | ClosedTransaction | UnsignedQueuedTransaction

/** The intent as saved and, for one the wallet broadcasts, its broadcast under way in the wallet's lane. */
export type Committed = { record: TransactionRecord; sending?: Promise<UnpausedTransaction> | undefined }

/**
 * Saves a judged intent in one commit with what the caller writes beside it (`alongside`: its
 * approval, idempotency record, events). A queued intent the wallet broadcasts is signed first, so
 * intent, raw tx and nonce are durable together (one fsync); its broadcast then waits in the
 * wallet's lane, in nonce order (`enqueueBroadcast`). The caller holds the wallet lock and awaits
 * `sending` only once it has released it.
 * @example const { sending } = await commitIntent(ctx, chain, record, gas, { write: 'insert', alongside })
 */
export async function commitIntent(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: JudgedTransaction,
  gas: GasSettings | undefined,
  options: {
    /** `insert` for an intent not saved before, `put` for one saved earlier (an approved one). */
    write: 'insert' | 'put'
    alongside?: ((tx: StorageTx, saved: TransactionRecord) => Promise<void>) | undefined
    /** The nonce `judgeIntent` read under the same lock; allocated here without it. */
    allocated?: Promise<Allocated> | undefined
  },
): Promise<Committed> {
  // An x402 payment is settled by its payee, never signed here as a tx (isSettledOffchain).
  const signing =
    record.status === 'queued' && gas && !isSettledOffchain(record)
      ? await signRecord(ctx, chain, record, gas, options.allocated)
      : undefined
  const saved: TransactionRecord = signing?.signed ?? record
  await ctx.storage.transaction([], async (tx) => {
    if (signing) await saveSigned(ctx, tx, signing, options.write)
    else await tx[options.write]('transactions', record)
    await options.alongside?.(tx, saved)
  })
  // A smart wallet's intent: its user operation carries it, signed and handed on outside the lock.
  if (!signing && saved.status === 'queued' && !isSigned(saved) && isCarried(saved))
    return { record: saved, sending: carryUserOperation(ctx, chain, saved) }
  if (!signing) return { record: saved }
  return { record: saved, sending: enqueueBroadcast(ctx, chain, signing) }
}

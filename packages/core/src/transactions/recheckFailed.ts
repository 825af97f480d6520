import type { AgentWalletContext } from '../context.js'
import type { Filter } from '../storage/types.js'
import { walletLockKey, withLock } from '../storage/withLock.js'
import { chainVerdict } from './chainVerdict.js'
import { markNonceSettled, minedRecord, reopened, writeRecovered } from './laneTransitions.js'
import { adoptMined } from './replaceStuck.js'
import { type FailedTransaction, isSigned, type Signature, type TransactionRecord } from './types.js'

type WatchedFailure = FailedTransaction & Signature

/**
 * The tracker's look at signed txs reported failed before a block whose nonce the chain has not yet
 * shown used by another tx (`nonceSettled: false`): one the chain shows mined under one of its
 * signatures becomes confirmed (`recovered`: nothing paid on chain stays reported failed); one whose
 * nonce another tx took is settled and not looked at again. With `legacy` (start-up reconciliation),
 * also the failed records written before `nonceSettled` was kept. `where` limits the chains.
 * @example await recheckFailed(ctx, { where: {}, legacy: true })
 */
export async function recheckFailed(
  ctx: AgentWalletContext,
  options: { where: Filter; legacy: boolean },
): Promise<void> {
  const [watched, older] = await Promise.all([
    ctx.storage.query('transactions', {
      where: { status: 'failed', nonceSettled: false, ...options.where },
      orderBy: 'createdAt',
      limit: 1000,
    }),
    options.legacy
      ? ctx.storage.query('transactions', { where: { status: 'failed', ...options.where } })
      : ([] as TransactionRecord[]),
  ])
  const legacy = older
    .filter(isWatched)
    .filter((record) => record.nonceSettled === undefined && record.blockNumber === undefined)
  await Promise.all([...watched.filter(isWatched), ...legacy].map((record) => recheck(ctx, record)))
}

const isWatched = (record: TransactionRecord): record is WatchedFailure =>
  record.status === 'failed' && isSigned(record)

async function recheck(ctx: AgentWalletContext, candidate: WatchedFailure): Promise<void> {
  const chain = ctx.chains.get(candidate.chain)
  const verdict = await chainVerdict(chain, candidate)
  if (verdict.kind === 'open' || verdict.kind === 'unknown') return
  await withLock(ctx.storage, [walletLockKey(candidate.from)], async () => {
    const record = await ctx.storage.get('transactions', candidate.id)
    if (record?.status !== 'failed' || !isSigned(record) || record.updatedAt !== candidate.updatedAt) return
    if (verdict.kind === 'taken') return markNonceSettled(ctx, record)
    const { receipt } = verdict
    const mined = minedRecord(ctx, adoptMined(reopened(record), receipt.transactionHash), receipt)
    await ctx.storage.transaction([], (tx) => writeRecovered(ctx, tx, mined))
  })
}

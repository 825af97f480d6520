import type { AgentWalletContext } from '../context.js'
import type { Filter } from '../storage/types.js'
import type { TransactionStatus } from '../transactions/types.js'
import type { MetricFamily, MetricSample } from './metricFamily.js'

export type CollectMetricsReturnType = MetricFamily[]

// A Record, not an array, so a new status that is not listed here is a type error.
const statuses: Record<TransactionStatus, true> = {
  pending_approval: true,
  rejected: true,
  expired: true,
  blocked: true,
  queued: true,
  submitted: true,
  confirmed: true,
  failed: true,
}
const unmined = ['queued', 'submitted'] as const
const shared = 'Read from storage at scrape time: the same from every replica (do not sum across replicas).'

/**
 * The storage-derived gauges of a deployment — transactions by chain and status, the age of the
 * oldest unmined transaction per chain, the approval backlog, webhook deliveries pending and dead —
 * as aggregate counts with no ids, addresses or tenants. Every read is an indexed `count` or a
 * `limit: 1` query: nothing scans records.
 * @example const families = await collectMetrics(agentWallet.context)
 */
export async function collectMetrics(
  ctx: Pick<AgentWalletContext, 'storage' | 'chains' | 'now'>,
): Promise<CollectMetricsReturnType> {
  const chains = ctx.chains.list().map((chain) => chain.name)
  const now = ctx.now().getTime()
  const count = (collection: string, where: Filter) => ctx.storage.count(collection, { where })
  const ageOfOldest = async (
    collection: 'transactions' | 'approvals' | 'webhook_deliveries',
    where: Filter,
  ) => {
    const [oldest] = await ctx.storage.query(collection, {
      where,
      orderBy: 'createdAt',
      order: 'asc',
      limit: 1,
    })
    return oldest ? Math.max(0, (now - Date.parse(oldest.createdAt)) / 1000) : 0
  }
  const sample = async (labels: Record<string, string>, value: Promise<number>): Promise<MetricSample> => ({
    labels,
    value: await value,
  })

  const [transactions, oldestUnmined, approvals, deliveries] = await Promise.all([
    Promise.all(
      chains.flatMap((chain) =>
        Object.keys(statuses).map((status) =>
          sample({ chain, status }, count('transactions', { chain, status })),
        ),
      ),
    ),
    Promise.all(
      chains.flatMap((chain) =>
        unmined.map((status) => sample({ chain, status }, ageOfOldest('transactions', { chain, status }))),
      ),
    ),
    Promise.all([count('approvals', { status: 'pending' }), ageOfOldest('approvals', { status: 'pending' })]),
    Promise.all([
      count('webhook_deliveries', { status: 'pending' }),
      count('webhook_deliveries', { status: 'dead' }),
      ageOfOldest('webhook_deliveries', { status: 'pending' }),
    ]),
  ])
  return [
    {
      name: 'agentwallet_transactions',
      help: `Transactions (intents) by chain and status. ${shared}`,
      type: 'gauge',
      samples: transactions,
    },
    {
      name: 'agentwallet_transactions_oldest_unmined_age_seconds',
      help: `Age since creation of the oldest queued or submitted transaction per chain, 0 when none: the tracker's lag (an intent that waited for approval counts its wait; alert with a for: clause). ${shared}`,
      type: 'gauge',
      samples: oldestUnmined,
    },
    {
      name: 'agentwallet_approvals_pending',
      help: `Approvals waiting for a human. ${shared}`,
      type: 'gauge',
      samples: [{ value: approvals[0] }],
    },
    {
      name: 'agentwallet_approvals_oldest_pending_age_seconds',
      help: `Age of the oldest pending approval, 0 when none. ${shared}`,
      type: 'gauge',
      samples: [{ value: approvals[1] }],
    },
    {
      name: 'agentwallet_webhook_deliveries',
      help: `Webhook deliveries waiting to be (re)attempted (pending) or dead-lettered (dead). ${shared}`,
      type: 'gauge',
      samples: [
        { labels: { status: 'pending' }, value: deliveries[0] },
        { labels: { status: 'dead' }, value: deliveries[1] },
      ],
    },
    {
      name: 'agentwallet_webhook_deliveries_oldest_pending_age_seconds',
      help: `Age of the oldest pending webhook delivery, 0 when none. ${shared}`,
      type: 'gauge',
      samples: [{ value: deliveries[2] }],
    },
  ]
}

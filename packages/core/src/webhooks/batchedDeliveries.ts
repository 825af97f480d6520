import type { AgentWalletContext } from '../context.js'
import type { Filter, StorageReader } from '../storage/types.js'
import { unbatchDeliveries } from './deliveryBatch.js'
import type { WebhookDeliveryRecord } from './types.js'

/** The log's order: newest first, ties by id, descending, as storage orders `createdAt` desc. */
export function newestFirst(a: WebhookDeliveryRecord, b: WebhookDeliveryRecord): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1
}

/**
 * At least the `top` newest batched deliveries matching `where` (tenant, subscription), or all there
 * are: every batched delivery newer than those left unread is among them. Batches are read newest
 * `lastAt` first, so an unread batch holds nothing newer than the last batch read; the read widens
 * (each read one snapshot, at least twice the last, sized by the batches seen) until `top` deliveries
 * are newer than that bound.
 * @example const newest = await newestBatchedDeliveries(ctx, { tenantId }, offset + limit)
 */
export async function newestBatchedDeliveries(
  ctx: Pick<AgentWalletContext, 'storage'>,
  where: Filter,
  top: number,
): Promise<WebhookDeliveryRecord[]> {
  let batches = Math.min(top, 8)
  for (;;) {
    const read = await ctx.storage.query('webhook_delivery_batches', {
      where,
      orderBy: 'lastAt',
      order: 'desc',
      limit: batches,
    })
    const deliveries = read.flatMap(unbatchDeliveries)
    if (read.length < batches) return deliveries
    const bound = read.at(-1)!.lastAt
    const newer = deliveries.filter(({ createdAt }) => createdAt > bound).length
    if (newer >= top) return deliveries
    // At least double; as many as the batches read so far suggest are needed, with a margin, if more.
    batches = Math.max(batches * 2, Math.ceil(((batches * top) / Math.max(newer, 1)) * 1.25))
  }
}

/**
 * How many delivered entries the tenant's batch records hold (of one subscription, when given),
 * from the counts kept beside them: each subscription's, and a deleted subscription's retired one.
 * @example const batched = await countBatchedDeliveries(ctx.storage, tenantId)
 */
export async function countBatchedDeliveries(
  storage: StorageReader,
  tenantId: string,
  subscriptionId?: string,
): Promise<number> {
  if (subscriptionId) {
    const [live, retired] = await Promise.all([
      storage.get('webhook_subscriptions', subscriptionId),
      storage.get('webhook_retired_counts', subscriptionId),
    ])
    const counted = live ?? retired
    return counted?.tenantId === tenantId ? (counted.batchedDeliveries ?? 0) : 0
  }
  const [live, retired] = await Promise.all([
    storage.query('webhook_subscriptions', { where: { tenantId } }),
    storage.query('webhook_retired_counts', { where: { tenantId } }),
  ])
  return [...live, ...retired].reduce((sum, counted) => sum + (counted.batchedDeliveries ?? 0), 0)
}

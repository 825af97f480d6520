import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import { NotFoundError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import type { Filter } from '../storage/types.js'
import { countBatchedDeliveries, newestBatchedDeliveries, newestFirst } from './batchedDeliveries.js'
import { findBatchedDelivery, takeOutOfBatch } from './takeOutOfBatch.js'
import type { WebhookDeliveryRecord } from './types.js'
import type { listDeliveriesSchema } from './webhookSchemas.js'

/**
 * The delivery log, newest first, every attempt with its status, duration and response excerpt:
 * the `webhook_deliveries` records (every delivery that failed an attempt, or was retried, and those
 * from before batches) and the deliveries kept in batch records, as one list under one count.
 * @example const { deliveries } = await listWebhookDeliveries(ctx, admin, { status: 'dead' })
 */
export async function listWebhookDeliveries(
  ctx: Pick<AgentWalletContext, 'storage'>,
  principal: Principal,
  { subscriptionId, status, limit, offset }: z.output<typeof listDeliveriesSchema>,
): Promise<{ count: number; deliveries: WebhookDeliveryRecord[] }> {
  const where: Filter = { tenantId: principal.tenantId }
  if (subscriptionId) where.subscriptionId = subscriptionId
  const recorded: Filter = status ? { ...where, status } : where
  const [count, batched] = await Promise.all([
    ctx.storage.count('webhook_deliveries', { where: recorded }),
    // Batches hold delivered deliveries only.
    status === undefined || status === 'delivered'
      ? countBatchedDeliveries(ctx.storage, principal.tenantId, subscriptionId)
      : 0,
  ])
  const newest = (records: { limit: number; offset: number }) =>
    ctx.storage.query('webhook_deliveries', {
      where: recorded,
      orderBy: 'createdAt',
      order: 'desc',
      ...records,
    })
  if (batched === 0) return { count, deliveries: await newest({ limit, offset }) }
  // Both sources' newest `offset + limit`, merged: the page is among them.
  const [records, fromBatches] = await Promise.all([
    newest({ limit: offset + limit, offset: 0 }),
    newestBatchedDeliveries(ctx, where, offset + limit),
  ])
  const deliveries = [...records, ...fromBatches].sort(newestFirst).slice(offset, offset + limit)
  return { count: count + batched, deliveries }
}

/**
 * "Attempt it now". A dead-lettered or delivered delivery goes back to pending with a fresh attempt
 * budget and is attempted at once, out of the subscription's order since the receiver asked for it.
 * A pending one keeps its place: the subscription's head (the earliest pending delivery, the only
 * one attempted while it fails) has its next attempt moved to now, so the order stays as it was.
 * @example await retryWebhookDelivery(ctx, admin, { deliveryId })
 */
export async function retryWebhookDelivery(
  ctx: AgentWalletContext,
  principal: Principal,
  { deliveryId }: { deliveryId: string },
): Promise<{ delivery: WebhookDeliveryRecord }> {
  const existing =
    (await ctx.storage.get('webhook_deliveries', deliveryId)) ??
    (await findBatchedDelivery(ctx.storage, deliveryId))
  if (!existing || existing.tenantId !== principal.tenantId) {
    throw new NotFoundError('Webhook delivery', { details: { deliveryId } })
  }
  return ctx.storage.transaction([`webhook:${existing.subscriptionId}`], async (tx) => {
    const now = ctx.now().toISOString()
    // A delivery kept in a batch leaves it: from here on it is a record of its own.
    const delivery =
      (await tx.get('webhook_deliveries', deliveryId)) ?? (await takeOutOfBatch(tx, deliveryId, now))
    if (!delivery) throw new NotFoundError('Webhook delivery', { details: { deliveryId } })
    if (delivery.status === 'pending') {
      const [head] = await tx.query('webhook_deliveries', {
        where: { subscriptionId: delivery.subscriptionId, status: 'pending' },
        orderBy: 'seq',
        limit: 1,
      })
      if (!head || head.nextAttemptAt <= now) return { delivery }
      const due: WebhookDeliveryRecord = { ...head, nextAttemptAt: now, updatedAt: now }
      await tx.put('webhook_deliveries', due)
      return { delivery: head.id === delivery.id ? due : delivery }
    }
    const retried: WebhookDeliveryRecord = {
      ...delivery,
      status: 'pending',
      nextAttemptAt: now,
      updatedAt: now,
      // A manual retry gets a fresh attempt budget; earlier attempts stay in the log.
      attemptBase: delivery.attempts.length,
    }
    await tx.put('webhook_deliveries', retried)
    return { delivery: retried }
  })
}

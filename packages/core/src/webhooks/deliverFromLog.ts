import type { AgentWalletContext } from '../context.js'
import type { WebhookConnections } from './attemptDelivery.js'
import { newDeliveryBatch } from './deliveryBatch.js'
import { newDelivery, wants } from './newDelivery.js'
import { type Settled, saveSubscriptionOutcome, settleAttempt } from './settleAttempt.js'
import { signAndAttempt } from './signAndAttempt.js'
import type { WebhookSubscriptionRecord } from './types.js'

/**
 * Delivers up to `limit` events after the subscription's cursor straight from the tenant's log, one
 * after another, stopping at the first that is not delivered. One commit for the batch: one batch
 * record for every delivery that succeeded (`webhook_delivery_batches`, none when none did), a
 * `webhook_deliveries` record for the one it stopped at (pending or dead), the cursor moved past the
 * last one settled, the run of dead letters. A crash before that commit sends the batch again (at
 * least once, under the same `webhook-id`).
 * @example const { attempted } = await deliverFromLog(ctx, subscription, 100)
 */
export async function deliverFromLog(
  ctx: AgentWalletContext,
  subscription: WebhookSubscriptionRecord,
  limit: number,
  connections?: WebhookConnections,
): Promise<{ attempted: number; subscription: WebhookSubscriptionRecord }> {
  const events = await ctx.storage.readEvents(subscription.tenantId, { after: subscription.cursor, limit })
  if (events.length === 0) return { attempted: 0, subscription }
  const settled: Settled[] = []
  let cursor = subscription.cursor
  let deadInARow = subscription.consecutiveDeadLetters
  for (const event of events) {
    cursor = event.seq
    if (!wants(subscription, event)) continue
    const delivery = newDelivery(subscription, event, ctx.now().toISOString())
    const attempt = await signAndAttempt(ctx, subscription, delivery, event, connections)
    const outcome = settleAttempt(ctx, { consecutiveDeadLetters: deadInARow }, delivery, attempt)
    settled.push(outcome)
    deadInARow = outcome.deadInARow
    // A pending one becomes the head the next deliveries wait behind; a dead one may disable the subscription.
    if (outcome.delivery.status !== 'delivered') break
  }
  const last = settled.at(-1)
  const disable = last?.disable ?? false
  const delivered = settled.map(({ delivery }) => delivery).filter(({ status }) => status === 'delivered')
  await ctx.storage.transaction([], async (tx) => {
    if (delivered.length > 0)
      await tx.insert(
        'webhook_delivery_batches',
        newDeliveryBatch(subscription, delivered, ctx.now().toISOString()),
      )
    // Only the last can be other than delivered: the one the batch stopped at.
    if (last && last.delivery.status !== 'delivered') await tx.put('webhook_deliveries', last.delivery)
    await saveSubscriptionOutcome(
      ctx,
      tx,
      subscription.id,
      { deadInARow, disable },
      { cursor, batched: delivered.length },
    )
  })
  return {
    attempted: Math.max(settled.length, 1),
    subscription: {
      ...subscription,
      cursor,
      consecutiveDeadLetters: deadInARow,
      status: disable ? 'disabled' : subscription.status,
    },
  }
}

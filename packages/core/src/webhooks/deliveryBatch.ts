import type {
  BatchedDelivery,
  WebhookDeliveryBatchRecord,
  WebhookDeliveryRecord,
  WebhookSubscriptionRecord,
} from './types.js'
import { webhookDeliveryId } from './webhookDeliveryId.js'

/**
 * The batch record of deliveries that succeeded at their first attempt, in seq order (at least one).
 * @example const batch = newDeliveryBatch(subscription, delivered, now)
 */
export function newDeliveryBatch(
  subscription: Pick<WebhookSubscriptionRecord, 'id' | 'tenantId' | 'url'>,
  delivered: readonly WebhookDeliveryRecord[],
  now: string,
): WebhookDeliveryBatchRecord {
  const deliveries = delivered.map(toBatchedDelivery)
  return {
    id: `whb_${subscription.id.replace(/^whk_/, '')}_${deliveries[0]!.seq}`,
    tenantId: subscription.tenantId,
    subscriptionId: subscription.id,
    url: subscription.url,
    ...bounds(deliveries),
    deliveries,
    createdAt: now,
    updatedAt: now,
  }
}

/**
 * The batch without the delivery of `seq`, or `undefined` when that was its last one.
 * @example const rest = withoutDelivery(batch, 17, now)
 */
export function withoutDelivery(
  batch: WebhookDeliveryBatchRecord,
  seq: number,
  now: string,
): WebhookDeliveryBatchRecord | undefined {
  const deliveries = batch.deliveries.filter((delivery) => delivery.seq !== seq)
  if (deliveries.length === 0) return undefined
  return { ...batch, ...bounds(deliveries), deliveries, updatedAt: now }
}

/**
 * Each delivery of a batch as the log shows it: a delivered record with its one attempt.
 * @example const deliveries = unbatchDeliveries(batch)
 */
export function unbatchDeliveries(batch: WebhookDeliveryBatchRecord): WebhookDeliveryRecord[] {
  return batch.deliveries.map(({ attempt, ...delivery }) => {
    // The answer's time; the batch keeps the attempt's start and its duration.
    const answeredAt = new Date(Date.parse(attempt.at) + attempt.durationMs).toISOString()
    return {
      id: webhookDeliveryId(batch.subscriptionId, delivery.seq),
      tenantId: batch.tenantId,
      subscriptionId: batch.subscriptionId,
      url: batch.url,
      ...delivery,
      status: 'delivered',
      attempts: [{ ...attempt, ok: true }],
      attemptBase: 0,
      nextAttemptAt: attempt.at,
      createdAt: attempt.at,
      updatedAt: answeredAt,
    }
  })
}

function toBatchedDelivery({
  seq,
  eventId,
  eventType,
  webhookEvent,
  attempts,
}: WebhookDeliveryRecord): BatchedDelivery {
  // Batched only when delivered at its first attempt, so that attempt is the one there is, and was answered.
  const { at, durationMs, statusCode, responseBytes, responseExcerpt } = attempts[0]!
  return {
    seq,
    eventId,
    eventType,
    webhookEvent,
    // Optional fields left out rather than kept as `undefined`: the record stays as small as JSON allows.
    attempt: {
      at,
      durationMs,
      statusCode: statusCode ?? 0,
      ...(responseBytes === undefined ? {} : { responseBytes }),
      ...(responseExcerpt === undefined ? {} : { responseExcerpt }),
    },
  }
}

function bounds(deliveries: readonly BatchedDelivery[]): { firstSeq: number; lastAt: string } {
  // The latest time, not the last delivery's: a wall clock stepped back must not hide one from the log.
  const lastAt = deliveries
    .map(({ attempt }) => attempt.at)
    .sort()
    .at(-1)!
  return { firstSeq: deliveries[0]!.seq, lastAt }
}

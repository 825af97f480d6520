import type { StorageReader, StorageTx } from '../storage/types.js'
import { unbatchDeliveries, withoutDelivery } from './deliveryBatch.js'
import type { WebhookDeliveryBatchRecord, WebhookDeliveryRecord } from './types.js'
import { parseWebhookDeliveryId } from './webhookDeliveryId.js'

/**
 * The batched delivery `deliveryId` names, as the log shows it, or `undefined` when no batch holds it.
 * @example const delivery = await findBatchedDelivery(ctx.storage, 'whd_3f2a_17')
 */
export async function findBatchedDelivery(
  reader: StorageReader,
  deliveryId: string,
): Promise<WebhookDeliveryRecord | undefined> {
  return (await batchOf(reader, deliveryId))?.delivery
}

/**
 * Moves a batched delivery out of its batch, in `tx`, for a caller holding its subscription's lock:
 * the batch is rewritten without it (deleted when it held nothing else) and the subscription's count
 * of batched deliveries (or its retired count, once deleted) goes down by one. Answers the delivery
 * as the log showed it, for the caller to write as a record of its own in the same `tx`.
 * @example const delivery = await takeOutOfBatch(tx, 'whd_3f2a_17', now)
 */
export async function takeOutOfBatch(
  tx: StorageTx,
  deliveryId: string,
  now: string,
): Promise<WebhookDeliveryRecord | undefined> {
  const found = await batchOf(tx, deliveryId)
  if (!found) return undefined
  const { batch, delivery } = found
  const rest = withoutDelivery(batch, delivery.seq, now)
  if (rest) await tx.put('webhook_delivery_batches', rest)
  else await tx.delete('webhook_delivery_batches', batch.id)
  const live = await tx.get('webhook_subscriptions', batch.subscriptionId)
  if (live) {
    await tx.put('webhook_subscriptions', { ...live, batchedDeliveries: (live.batchedDeliveries ?? 0) - 1 })
    return delivery
  }
  const retired = await tx.get('webhook_retired_counts', batch.subscriptionId)
  if (retired)
    await tx.put('webhook_retired_counts', { ...retired, batchedDeliveries: retired.batchedDeliveries - 1 })
  return delivery
}

/** The batch holding the delivery (the subscription's last one starting at or before its seq), and the delivery. */
async function batchOf(
  reader: StorageReader,
  deliveryId: string,
): Promise<{ batch: WebhookDeliveryBatchRecord; delivery: WebhookDeliveryRecord } | undefined> {
  const named = parseWebhookDeliveryId(deliveryId)
  if (!named) return undefined
  const [batch] = await reader.query('webhook_delivery_batches', {
    where: { subscriptionId: named.subscriptionId },
    range: { field: 'firstSeq', lt: named.seq + 1 },
    orderBy: 'firstSeq',
    order: 'desc',
    limit: 1,
  })
  const delivery = batch && unbatchDeliveries(batch).find(({ id }) => id === deliveryId)
  return batch && delivery ? { batch, delivery } : undefined
}

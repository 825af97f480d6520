import type { EventName } from '../schemas/eventNames.js'
import { toWebhookEventName } from '../schemas/eventNames.js'
import type { StoredEvent } from '../storage/types.js'
import type { WebhookDeliveryRecord, WebhookSubscriptionRecord } from './types.js'
import { webhookDeliveryId } from './webhookDeliveryId.js'

/** Whether the subscription listens for the event's type. */
export function wants(subscription: WebhookSubscriptionRecord, event: StoredEvent): boolean {
  return subscription.events.includes('*') || subscription.events.includes(event.type as EventName)
}

/** A not yet attempted delivery of `event` to the subscription; its id is stable per (subscription, seq). */
export function newDelivery(
  subscription: WebhookSubscriptionRecord,
  event: StoredEvent,
  now: string,
): WebhookDeliveryRecord {
  return {
    id: webhookDeliveryId(subscription.id, event.seq),
    tenantId: subscription.tenantId,
    subscriptionId: subscription.id,
    url: subscription.url,
    eventId: event.id,
    eventType: event.type as EventName,
    webhookEvent: toWebhookEventName(event.type as EventName),
    seq: event.seq,
    status: 'pending',
    attempts: [],
    attemptBase: 0,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  }
}

import type { AgentWalletContext } from '../context.js'
import { isAgentWalletError } from '../errors/baseError.js'
import type { StoredEvent } from '../storage/types.js'
import { attemptDelivery, type WebhookConnections } from './attemptDelivery.js'
import { resolveWebhookTarget, type WebhookTarget } from './resolveWebhookTarget.js'
import { signWebhook } from './signWebhook.js'
import type { WebhookAttempt, WebhookDeliveryRecord, WebhookSubscriptionRecord } from './types.js'
import { openWebhookSecret } from './webhookSecret.js'

/**
 * One attempt of one delivery: opens the subscription's secret, judges the target again (the name
 * may point elsewhere since subscribe), signs the event's envelope and POSTs it. Never throws for
 * a failure it can name: an unopenable secret or a refused target is a failed attempt, and nothing is sent.
 * @example const attempt = await signAndAttempt(ctx, subscription, delivery, event)
 */
export async function signAndAttempt(
  ctx: AgentWalletContext,
  subscription: WebhookSubscriptionRecord,
  delivery: Pick<WebhookDeliveryRecord, 'eventId' | 'webhookEvent' | 'seq' | 'url'>,
  event: StoredEvent | undefined,
  connections?: WebhookConnections,
): Promise<WebhookAttempt> {
  let secret: string
  try {
    // Opened per attempt (one AES-GCM, no KDF), so no plaintext secret lingers in memory between them.
    secret = openWebhookSecret(ctx, subscription)
  } catch (error) {
    if (!isAgentWalletError(error)) throw error
    // Nothing is sent: a request signed with a wrong key would only teach the receiver to ignore failures.
    return { at: ctx.now().toISOString(), durationMs: 0, statusCode: null, ok: false, error: error.code }
  }
  let target: WebhookTarget
  try {
    target = await resolveWebhookTarget(delivery.url, ctx.options.webhooks)
  } catch (error) {
    if (!isAgentWalletError(error)) throw error
    // `private_address` is final; `unresolvable` (a DNS failure) is retried like a network error.
    const reason = String(error.details?.reason ?? 'private_address')
    return { at: ctx.now().toISOString(), durationMs: 0, statusCode: null, ok: false, error: reason }
  }
  const body = JSON.stringify({
    id: delivery.eventId,
    type: delivery.webhookEvent,
    seq: delivery.seq,
    timestamp: event?.timestamp,
    data: event?.data,
  })
  const headers = signWebhook({
    secret,
    id: delivery.eventId,
    timestamp: Math.floor(ctx.now().getTime() / 1000),
    body,
  })
  return attemptDelivery({
    target,
    body,
    headers,
    timeoutMs: ctx.options.webhooks.timeoutMs,
    now: ctx.now,
    connections,
  })
}

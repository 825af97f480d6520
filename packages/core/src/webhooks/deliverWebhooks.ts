import type { AgentWalletContext } from '../context.js'
import { isAgentWalletError } from '../errors/baseError.js'
import { appendEvent } from '../events/appendEvent.js'
import { type EventName, toWebhookEventName } from '../events/eventNames.js'
import { attemptDelivery } from './attemptDelivery.js'
import { computeBackoff, isRetryable } from './computeBackoff.js'
import { resolveWebhookTarget, type WebhookTarget } from './resolveWebhookTarget.js'
import { sealLegacyWebhookSecret } from './sealLegacyWebhookSecrets.js'
import { signWebhook } from './signWebhook.js'
import type { WebhookAttempt, WebhookDeliveryRecord, WebhookSubscriptionRecord } from './types.js'
import { openWebhookSecret } from './webhookSecret.js'

/**
 * One pass of the delivery worker over every active subscription: turn new events of the tenant's
 * log into deliveries (the log is the outbox, so nothing committed is missed), then deliver each
 * subscription's deliveries strictly in seq order — a later event waits while an earlier one is
 * being retried. Each subscription is worked under its own lock, so replicas never race on one.
 */
export async function deliverWebhooks(ctx: AgentWalletContext): Promise<void> {
  const subscriptions = await ctx.storage.query('webhook_subscriptions', {
    where: { status: 'active' },
    limit: 1000,
  })
  await Promise.all(subscriptions.map((subscription) => work(ctx, subscription.id)))
}

async function work(ctx: AgentWalletContext, subscriptionId: string): Promise<void> {
  await ctx.storage.transaction([`webhook:${subscriptionId}`], async () => {
    const subscription = await fanOut(ctx, subscriptionId)
    if (subscription?.status !== 'active') return
    // Delivered or dead-lettered heads make way for the next; a head waiting on backoff stops the loop.
    for (let budget = 100; budget > 0; budget--) {
      const [head] = await ctx.storage.query('webhook_deliveries', {
        where: { subscriptionId, status: 'pending' },
        orderBy: 'seq',
        limit: 1,
      })
      if (!head || Date.parse(head.nextAttemptAt) > ctx.now().getTime()) return
      const outcome = await deliver(ctx, subscription, head)
      if (outcome === 'retry_later' || outcome === 'disabled') return
    }
  })
}

/** Turns the tenant's events after the subscription's cursor into pending deliveries. */
async function fanOut(
  ctx: AgentWalletContext,
  subscriptionId: string,
): Promise<WebhookSubscriptionRecord | undefined> {
  const stored = await ctx.storage.get('webhook_subscriptions', subscriptionId)
  if (stored?.status !== 'active') return stored
  const subscription = await sealLegacyWebhookSecret(ctx, stored)
  const events = await ctx.storage.readEvents(subscription.tenantId, {
    after: subscription.cursor,
    limit: 500,
  })
  if (events.length === 0) return subscription
  const wanted = (type: string) =>
    subscription.events.includes('*') || subscription.events.includes(type as EventName)
  const now = ctx.now().toISOString()
  const next: WebhookSubscriptionRecord = { ...subscription, cursor: events.at(-1)!.seq, updatedAt: now }
  await ctx.storage.transaction([], async (tx) => {
    for (const event of events.filter((entry) => wanted(entry.type))) {
      const delivery: WebhookDeliveryRecord = {
        id: `whd_${subscription.id.replace(/^whk_/, '')}_${event.seq}`,
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
      await tx.insert('webhook_deliveries', delivery)
    }
    await tx.put('webhook_subscriptions', next)
  })
  return next
}

type Outcome = 'delivered' | 'dead' | 'retry_later' | 'disabled'

/**
 * Attempt errors that no retry can fix: a target that resolves to a private address, and a sealed
 * secret that fails authentication (moved from another subscription, or altered). A
 * `master_key_mismatch` is retried: another replica, or this one restarted with the right key, can sign.
 */
const permanentErrors = new Set<string | undefined>(['private_address', 'key_decryption_failed'])

async function deliver(
  ctx: AgentWalletContext,
  subscription: WebhookSubscriptionRecord,
  delivery: WebhookDeliveryRecord,
): Promise<Outcome> {
  const options = ctx.options.webhooks
  const attempt = await attemptOnce(ctx, subscription, delivery)
  const attempts = [...delivery.attempts, attempt]
  const used = attempts.length - delivery.attemptBase
  const now = ctx.now()
  const status: WebhookDeliveryRecord['status'] = attempt.ok
    ? 'delivered'
    : isRetryable(attempt.statusCode) && !permanentErrors.has(attempt.error) && used < options.maxAttempts
      ? 'pending'
      : 'dead'
  const updated: WebhookDeliveryRecord = {
    ...delivery,
    attempts,
    status,
    nextAttemptAt:
      status === 'pending'
        ? new Date(
            now.getTime() +
              computeBackoff(used, { baseMs: options.backoffBaseMs, maxMs: options.backoffMaxMs }),
          ).toISOString()
        : delivery.nextAttemptAt,
    updatedAt: now.toISOString(),
  }
  const deadInARow =
    status === 'dead'
      ? subscription.consecutiveDeadLetters + 1
      : status === 'delivered'
        ? 0
        : subscription.consecutiveDeadLetters
  const disable = deadInARow >= options.disableAfterDeadLetters
  await ctx.storage.transaction([], async (tx) => {
    await tx.put('webhook_deliveries', updated)
    const current = await tx.get('webhook_subscriptions', subscription.id)
    if (!current) return
    const reason = `${deadInARow} deliveries in a row were dead-lettered`
    await tx.put('webhook_subscriptions', {
      ...current,
      consecutiveDeadLetters: deadInARow,
      ...(disable ? { status: 'disabled', disabledReason: reason } : {}),
      updatedAt: now.toISOString(),
    })
    if (disable)
      appendEvent(ctx, tx, current.tenantId, 'webhook.disabled', {
        subscriptionId: current.id,
        url: current.url,
        reason,
      })
  })
  subscription.consecutiveDeadLetters = deadInARow
  if (disable) return 'disabled'
  return status === 'pending' ? 'retry_later' : status
}

async function attemptOnce(
  ctx: AgentWalletContext,
  subscription: WebhookSubscriptionRecord,
  delivery: WebhookDeliveryRecord,
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
    // Judged again now, not trusted from subscribe: the name may point elsewhere by now.
    target = await resolveWebhookTarget(delivery.url, ctx.options.webhooks)
  } catch (error) {
    if (!isAgentWalletError(error)) throw error
    // `private_address` is final; `unresolvable` (a DNS failure) is retried like a network error.
    const reason = String(error.details?.reason ?? 'private_address')
    return { at: ctx.now().toISOString(), durationMs: 0, statusCode: null, ok: false, error: reason }
  }
  const [event] = await ctx.storage.readEvents(delivery.tenantId, { after: delivery.seq - 1, limit: 1 })
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
  })
}

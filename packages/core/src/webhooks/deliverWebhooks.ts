import type { AgentWalletContext } from '../context.js'
import type { WebhookConnections } from './attemptDelivery.js'
import { deliverFromLog } from './deliverFromLog.js'
import { newDelivery, wants } from './newDelivery.js'
import { sealLegacyWebhookSecret } from './sealLegacyWebhookSecrets.js'
import { saveSubscriptionOutcome, settleAttempt } from './settleAttempt.js'
import { signAndAttempt } from './signAndAttempt.js'
import type { WebhookDeliveryRecord, WebhookSubscriptionRecord } from './types.js'

/** Events a subscription works through in one pass before it lets the next pass (and its lock) have a turn. */
const passBudget = 500

/**
 * One pass of the delivery worker over every active subscription, worked concurrently, each under
 * its own lock so replicas never race on one. Within a subscription the order is the log's:
 * - nothing pending: events after the cursor go straight from the tenant's log (the log is the
 *   outbox, so nothing committed is missed), a batch at a time, with one commit per batch;
 * - a delivery failing: it is the head, retried on its backoff, and later events wait behind it as
 *   pending records (listed, retryable) until it is delivered or dead-lettered.
 * Resolves `true` when a subscription used up its budget, so the worker runs again at once. The
 * worker passes its keep-alive `connections`; without them each attempt opens its own.
 */
export async function deliverWebhooks(
  ctx: AgentWalletContext,
  connections?: WebhookConnections,
): Promise<boolean> {
  const subscriptions = await ctx.storage.query<WebhookSubscriptionRecord>('webhook_subscriptions', {
    where: { status: 'active' },
    limit: 1000,
  })
  const more = await Promise.all(subscriptions.map((subscription) => work(ctx, subscription.id, connections)))
  return more.includes(true)
}

async function work(
  ctx: AgentWalletContext,
  subscriptionId: string,
  connections: WebhookConnections | undefined,
): Promise<boolean> {
  return ctx.storage.transaction([`webhook:${subscriptionId}`], async () => {
    const stored = await ctx.storage.get<WebhookSubscriptionRecord>('webhook_subscriptions', subscriptionId)
    if (stored?.status !== 'active') return false
    let subscription = await sealLegacyWebhookSecret(ctx, stored)
    let budget = passBudget
    while (budget > 0) {
      const [head] = await ctx.storage.query<WebhookDeliveryRecord>('webhook_deliveries', {
        where: { subscriptionId, status: 'pending' },
        orderBy: 'seq',
        limit: 1,
      })
      if (head && Date.parse(head.nextAttemptAt) > ctx.now().getTime()) {
        await queueBehindHead(ctx, subscription)
        return false
      }
      const step = head
        ? await deliverHead(ctx, subscription, head, connections)
        : await deliverFromLog(ctx, subscription, Math.min(budget, 100), connections)
      if (step.attempted === 0 || step.subscription.status !== 'active') return false
      subscription = step.subscription
      budget -= step.attempted
    }
    return true
  })
}

/** Attempts the subscription's earliest pending delivery once, and saves what came of it. */
async function deliverHead(
  ctx: AgentWalletContext,
  subscription: WebhookSubscriptionRecord,
  head: WebhookDeliveryRecord,
  connections: WebhookConnections | undefined,
): Promise<{ attempted: number; subscription: WebhookSubscriptionRecord }> {
  const [event] = await ctx.storage.readEvents(head.tenantId, { after: head.seq - 1, limit: 1 })
  const attempt = await signAndAttempt(ctx, subscription, head, event, connections)
  const settled = settleAttempt(ctx, subscription, head, attempt)
  await ctx.storage.transaction([], async (tx) => {
    await tx.put('webhook_deliveries', settled.delivery)
    await saveSubscriptionOutcome(ctx, tx, subscription.id, settled)
  })
  const next: WebhookSubscriptionRecord = {
    ...subscription,
    consecutiveDeadLetters: settled.deadInARow,
    status: settled.disable ? 'disabled' : subscription.status,
  }
  // A head still pending waits out its backoff: the pass stops here for this subscription.
  return { attempted: settled.delivery.status === 'pending' ? 0 : 1, subscription: next }
}

/**
 * While a delivery fails, the events after the cursor become pending records behind it, so the
 * log shows what waits and each can be retried by id; they go out in seq order once the head is settled.
 */
async function queueBehindHead(
  ctx: AgentWalletContext,
  subscription: WebhookSubscriptionRecord,
): Promise<void> {
  const events = await ctx.storage.readEvents(subscription.tenantId, {
    after: subscription.cursor,
    limit: 500,
  })
  if (events.length === 0) return
  const now = ctx.now().toISOString()
  await ctx.storage.transaction([], async (tx) => {
    for (const event of events.filter((entry) => wants(subscription, entry)))
      await tx.insert('webhook_deliveries', newDelivery(subscription, event, now))
    const current = await tx.get<WebhookSubscriptionRecord>('webhook_subscriptions', subscription.id)
    if (current)
      await tx.put('webhook_subscriptions', { ...current, cursor: events.at(-1)!.seq, updatedAt: now })
  })
}

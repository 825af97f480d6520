import type { z } from 'zod'
import { appendAudit } from '../audit/appendAudit.js'
import type { AgentWalletContext } from '../context.js'
import { NotFoundError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { type EventName, toCanonicalEventName } from '../schemas/eventNames.js'
import type { StorageTx } from '../storage/types.js'
import { resolveWebhookTarget } from './resolveWebhookTarget.js'
import { newWebhookSecret } from './signWebhook.js'
import type { WebhookSubscriptionRecord } from './types.js'
import type { subscribeWebhookSchema } from './webhookSchemas.js'
import { sealWebhookSecret } from './webhookSecret.js'

/** A subscription as the API shows it: never the secret. */
export type WebhookSubscription = Omit<
  WebhookSubscriptionRecord,
  'secret' | 'sealedSecret' | 'cursor' | 'consecutiveDeadLetters' | 'batchedDeliveries'
>

export function toWebhookSubscription({
  secret: _secret,
  sealedSecret: _sealedSecret,
  cursor: _cursor,
  consecutiveDeadLetters: _dead,
  batchedDeliveries: _batched,
  ...shown
}: WebhookSubscriptionRecord): WebhookSubscription {
  return shown
}

/**
 * Subscribes a URL to the tenant's events. Deliveries start with events after this moment. The
 * signing secret is in this answer only (storage keeps it sealed with the master key). Admins are
 * declared for it: tenant events carry every agent's activity.
 * @example const { subscription, secret } = await subscribeWebhook(ctx, admin, { url, events: ['tx_confirmed'] })
 */
export async function subscribeWebhook(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof subscribeWebhookSchema>,
): Promise<{ subscription: WebhookSubscription; secret: string }> {
  await resolveWebhookTarget(input.url, ctx.options.webhooks)
  const events = input.events.includes('*')
    ? (['*'] as const)
    : [...new Set(input.events.map((name) => toCanonicalEventName(name) as EventName))]
  const now = ctx.now().toISOString()
  const id = ctx.newId('whk')
  const secret = newWebhookSecret()
  const record: WebhookSubscriptionRecord = {
    id,
    tenantId: principal.tenantId,
    url: input.url,
    events: [...events],
    description: input.description,
    // Stored sealed only: whoever reads the database cannot sign (forge) our webhooks.
    sealedSecret: sealWebhookSecret(ctx, id, secret),
    status: 'active',
    cursor: await lastSeq(ctx, principal.tenantId),
    consecutiveDeadLetters: 0,
    createdBy: principal.id,
    createdAt: now,
    updatedAt: now,
  }
  await ctx.storage.transaction([], async (tx) => {
    await tx.insert('webhook_subscriptions', record)
    auditWebhookChange(ctx, tx, record, 'subscribed', { by: principal.id })
  })
  return { subscription: toWebhookSubscription(record), secret }
}

/**
 * The tenant's subscriptions, without secrets.
 * @example const { subscriptions } = await listWebhooks(ctx, admin)
 */
export async function listWebhooks(
  ctx: AgentWalletContext,
  principal: Principal,
): Promise<{ count: number; subscriptions: WebhookSubscription[] }> {
  const records = await ctx.storage.query('webhook_subscriptions', {
    where: { tenantId: principal.tenantId },
    orderBy: 'createdAt',
  })
  return { count: records.length, subscriptions: records.map(toWebhookSubscription) }
}

/**
 * Deletes a subscription; its pending deliveries stop. Its log stays: the count of its batched
 * deliveries moves to a retired count (`webhook_retired_counts`), as the subscription record goes.
 * @example await deleteWebhook(ctx, admin, { subscriptionId: 'whk_…' })
 */
export async function deleteWebhook(
  ctx: AgentWalletContext,
  principal: Principal,
  { subscriptionId: id }: { subscriptionId: string },
): Promise<{ deleted: string }> {
  const deleted = await ctx.storage.transaction([`webhook:${id}`], async (tx) => {
    const record = await tx.get('webhook_subscriptions', id)
    if (!record || record.tenantId !== principal.tenantId) return false
    if (record.batchedDeliveries)
      await tx.put('webhook_retired_counts', {
        id,
        tenantId: record.tenantId,
        batchedDeliveries: record.batchedDeliveries,
      })
    auditWebhookChange(ctx, tx, record, 'deleted', { by: principal.id })
    return tx.delete('webhook_subscriptions', id)
  })
  if (!deleted) throw new NotFoundError('Webhook subscription', { details: { id } })
  return { deleted: id }
}

/**
 * Records a subscription made, deleted or disabled, in the commit that does it: what it sends where,
 * who did it (a key's id, or `service` with the reason when its failed deliveries disabled it), never
 * its secret.
 * @example auditWebhookChange(ctx, tx, record, 'deleted', { by: principal.id })
 */
export function auditWebhookChange(
  ctx: Pick<AgentWalletContext, 'now' | 'newId' | 'options'>,
  tx: StorageTx,
  record: WebhookSubscriptionRecord,
  change: 'subscribed' | 'deleted' | 'disabled',
  actor: { by: string; reason?: string | undefined },
): void {
  appendAudit(ctx, tx, record.tenantId, {
    kind: 'webhook.changed',
    payload: {
      change,
      subscriptionId: record.id,
      url: record.url,
      events: record.events,
      ...actor,
    },
  })
}

/** The tenant's newest event seq, so a new subscription starts after it (the port has no "last"). */
async function lastSeq(ctx: AgentWalletContext, tenantId: string): Promise<number> {
  let after = 0
  for (;;) {
    const page = await ctx.storage.readEvents(tenantId, { after, limit: 1000 })
    const last = page.at(-1)
    if (!last) return after
    after = last.seq
  }
}

import type { AgentWalletContext } from '../context.js'
import type { WebhookSubscriptionRecord } from './types.js'
import { withSealedWebhookSecret } from './webhookSecret.js'

/**
 * Seals the plaintext secrets of subscriptions written before secrets were sealed (all tenants,
 * disabled ones too, since the delivery pass never reaches those). Run at start by `reconcile`;
 * idempotent, and safe beside other replicas: each record is rewritten under its subscription lock.
 * @example const sealed = await sealLegacyWebhookSecrets(ctx)
 */
export async function sealLegacyWebhookSecrets(ctx: AgentWalletContext): Promise<number> {
  if (!ctx.secrets) return 0
  let sealed = 0
  for (let offset = 0; ; offset += 500) {
    const page = await ctx.storage.query('webhook_subscriptions', {
      orderBy: 'createdAt',
      limit: 500,
      offset,
    })
    for (const record of page.filter((entry) => entry.secret !== undefined)) {
      const done = await ctx.storage.transaction([`webhook:${record.id}`], async (tx) => {
        const current = await tx.get('webhook_subscriptions', record.id)
        if (current?.secret === undefined) return false
        await tx.put('webhook_subscriptions', withSealedWebhookSecret(ctx, current))
        return true
      })
      if (done) sealed++
    }
    if (page.length < 500) return sealed
  }
}

/**
 * The lazy half of the migration, for a caller already holding the subscription's lock (the
 * delivery pass): seals a plaintext secret a not-yet-upgraded replica may have written since start.
 * @example const subscription = await sealLegacyWebhookSecret(ctx, stored)
 */
export async function sealLegacyWebhookSecret(
  ctx: AgentWalletContext,
  record: WebhookSubscriptionRecord,
): Promise<WebhookSubscriptionRecord> {
  const sealed = withSealedWebhookSecret(ctx, record)
  if (sealed !== record)
    await ctx.storage.transaction([], async (tx) => tx.put('webhook_subscriptions', sealed))
  return sealed
}

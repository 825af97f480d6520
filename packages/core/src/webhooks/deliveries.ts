import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { NotFoundError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { parseInput } from '../schemas/parseInput.js'
import type { Filter } from '../storage/types.js'
import { assertAdmin } from './manageWebhooks.js'
import type { WebhookDeliveryRecord } from './types.js'
import { type ListDeliveriesParameters, listDeliveriesSchema } from './webhookSchemas.js'

/**
 * The delivery log, newest first, every attempt with its status, duration and response excerpt.
 * @example const { deliveries } = await listWebhookDeliveries(ctx, admin, { status: 'dead' })
 */
export async function listWebhookDeliveries(
  ctx: AgentWalletContext,
  principal: Principal,
  parameters: ListDeliveriesParameters = {},
): Promise<{ count: number; deliveries: WebhookDeliveryRecord[] }> {
  assertAdmin(principal)
  const { subscriptionId, status, limit, offset } = parseInput(listDeliveriesSchema, parameters)
  const where: Filter = { tenantId: principal.tenantId }
  if (subscriptionId) where.subscriptionId = subscriptionId
  if (status) where.status = status
  const [count, deliveries] = await Promise.all([
    ctx.storage.count('webhook_deliveries', { where }),
    ctx.storage.query<WebhookDeliveryRecord>('webhook_deliveries', {
      where,
      orderBy: 'createdAt',
      order: 'desc',
      limit,
      offset,
    }),
  ])
  return { count, deliveries }
}

/**
 * Sends a delivery again (a dead-lettered or already delivered one): it goes back to pending and
 * is attempted at once, out of the subscription's order since the receiver asked for it.
 * @example await retryWebhookDelivery(ctx, admin, deliveryId)
 */
export async function retryWebhookDelivery(
  ctx: AgentWalletContext,
  principal: Principal,
  deliveryId: string,
): Promise<WebhookDeliveryRecord> {
  assertAdmin(principal)
  const existing = await ctx.storage.get<WebhookDeliveryRecord>('webhook_deliveries', deliveryId)
  if (!existing || existing.tenantId !== principal.tenantId) {
    throw new NotFoundError('Webhook delivery', { details: { deliveryId } })
  }
  return ctx.storage.transaction([`webhook:${existing.subscriptionId}`], async (tx) => {
    const delivery = await tx.get<WebhookDeliveryRecord>('webhook_deliveries', deliveryId)
    if (!delivery) throw new NotFoundError('Webhook delivery', { details: { deliveryId } })
    if (delivery.status === 'pending') {
      throw new BaseError('conflict', 'The delivery is still pending; it will be attempted again', {
        details: { deliveryId, nextAttemptAt: delivery.nextAttemptAt },
      })
    }
    const retried: WebhookDeliveryRecord = {
      ...delivery,
      status: 'pending',
      nextAttemptAt: ctx.now().toISOString(),
      updatedAt: ctx.now().toISOString(),
      // A manual retry gets a fresh attempt budget; earlier attempts stay in the log.
      attemptBase: delivery.attempts.length,
    }
    await tx.put('webhook_deliveries', retried)
    return retried
  })
}

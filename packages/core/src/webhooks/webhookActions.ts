import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { listWebhookDeliveries, retryWebhookDelivery } from './deliveries.js'
import { deleteWebhook, listWebhooks, subscribeWebhook } from './manageWebhooks.js'
import type { ListDeliveriesParameters, SubscribeWebhookParameters } from './webhookSchemas.js'

/** The webhook actions bound to a context and a principal (spread into the session). */
export function webhookActions(ctx: AgentWalletContext, principal: Principal) {
  return {
    subscribeWebhook: (parameters: SubscribeWebhookParameters) =>
      subscribeWebhook(ctx, principal, parameters),
    listWebhooks: () => listWebhooks(ctx, principal),
    deleteWebhook: (id: string) => deleteWebhook(ctx, principal, id),
    listWebhookDeliveries: (parameters?: ListDeliveriesParameters) =>
      listWebhookDeliveries(ctx, principal, parameters),
    retryWebhookDelivery: (deliveryId: string) => retryWebhookDelivery(ctx, principal, deliveryId),
  }
}

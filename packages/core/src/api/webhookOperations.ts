import { listWebhookDeliveries, retryWebhookDelivery } from '../webhooks/deliveries.js'
import { deleteWebhook, listWebhooks, subscribeWebhook } from '../webhooks/manageWebhooks.js'
import { webhookContract } from '../webhooks/webhookContract.js'
import { bindOperation } from './defineOperation.js'

/** Webhook subscriptions and their delivery log (admin keys: tenant events cover every agent). */
export const webhookOperations = [
  bindOperation(webhookContract.subscribeWebhook, subscribeWebhook),
  bindOperation(webhookContract.listWebhooks, listWebhooks),
  bindOperation(webhookContract.listWebhookDeliveries, listWebhookDeliveries),
  bindOperation(webhookContract.retryWebhookDelivery, retryWebhookDelivery),
  bindOperation(webhookContract.deleteWebhook, deleteWebhook),
] as const

import * as z from 'zod/mini'
import { defineContracts } from '../schemas/defineContract.js'
import {
  listDeliveriesSchema,
  subscribeWebhookSchema,
  webhookDeliverySchema,
  webhookSubscriptionSchema,
} from './webhookSchemas.js'

const subscriptionIdField = z
  .string()
  .check(z.minLength(1), z.maxLength(100), z.describe('The subscription id (whk_…)'))

/** Webhook subscriptions and their delivery log (admin keys: tenant events cover every agent). (contracts: what each operation takes, answers and may fail with) */
export const webhookContract = defineContracts({
  subscribeWebhook: {
    summary: 'Subscribe a URL to events (either spelling, or *); the signing secret is shown once',
    description:
      'Subscribe a URL to the tenant’s events; deliveries are signed per Standard Webhooks with the secret in this answer (shown once).',
    input: subscribeWebhookSchema,
    output: z.object({
      subscription: webhookSubscriptionSchema,
      secret: z.string().check(z.describe('The signing secret (whsec_…): shown this once')),
    }),
    roles: ['admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'post', path: '/webhooks/subscribe', status: 201 },
    errors: [],
    tool: false,
  },
  listWebhooks: {
    summary: 'Subscriptions of the tenant (never their secrets)',
    description: 'The tenant’s webhook subscriptions, never their secrets.',
    input: z.strictObject({}),
    output: z.object({ count: z.number().check(z.int()), subscriptions: z.array(webhookSubscriptionSchema) }),
    roles: ['admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/webhooks/list', status: 200 },
    errors: [],
    tool: false,
  },
  listWebhookDeliveries: {
    summary: 'Delivery log, newest first, with every attempt (also at /webhooks/history)',
    description: 'The webhook delivery log, newest first, with every attempt.',
    input: listDeliveriesSchema,
    output: z.object({ count: z.number().check(z.int()), deliveries: z.array(webhookDeliverySchema) }),
    roles: ['admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/webhooks/logs', status: 200, aliases: ['/webhooks/history'] },
    errors: [],
    tool: false,
  },
  retryWebhookDelivery: {
    summary: 'Attempt a delivery now: a dead or delivered one again, a waiting one without its backoff',
    description:
      'Attempt a delivery now. A dead-lettered (or delivered) one is sent again with a fresh attempt budget; for one still pending, the subscription’s head (the delivery its order waits on) is attempted now instead of after its backoff, so the order is kept.',
    input: z.strictObject({
      deliveryId: z.string().check(z.minLength(1), z.maxLength(200), z.describe('The delivery id (whd_…)')),
    }),
    output: z.object({ delivery: webhookDeliverySchema }),
    roles: ['admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'post', path: '/webhooks/logs/:deliveryId/retry', status: 202 },
    errors: ['not_found'],
    tool: false,
  },
  deleteWebhook: {
    summary: 'Delete a subscription',
    description: 'Delete a subscription; its pending deliveries stop.',
    input: z.strictObject({ subscriptionId: subscriptionIdField }),
    output: z.object({ deleted: z.string() }),
    roles: ['admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'delete', path: '/webhooks/:subscriptionId', status: 200 },
    errors: ['not_found'],
    tool: false,
  },
})

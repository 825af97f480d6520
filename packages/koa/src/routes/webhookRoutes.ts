import { listDeliveriesSchema, subscribeWebhookSchema } from '@agentwallet/core'
import { defineRoute } from './defineRoute.js'

const listLogs = (path: string, summary: string) =>
  defineRoute({
    method: 'get',
    path,
    summary,
    roles: 'admin',
    query: listDeliveriesSchema,
    handler: async ({ session, query }) => ({
      body: { success: true, ...(await session.listWebhookDeliveries(query)) },
    }),
  })

/** Webhook subscriptions and their delivery log (admin keys: tenant events cover every agent). */
export const webhookRoutes = [
  defineRoute({
    method: 'post',
    path: '/webhooks/subscribe',
    summary: 'Subscribe a URL to events (either spelling, or *); the signing secret is shown once',
    roles: 'admin',
    body: subscribeWebhookSchema,
    status: 201,
    handler: async ({ session, body }) => {
      const { subscription, secret } = await session.subscribeWebhook(body)
      return { status: 201, body: { success: true, subscription, secret } }
    },
  }),
  defineRoute({
    method: 'get',
    path: '/webhooks/list',
    summary: 'Subscriptions of the tenant (never their secrets)',
    roles: 'admin',
    handler: async ({ session }) => {
      const subscriptions = await session.listWebhooks()
      return { body: { success: true, count: subscriptions.length, subscriptions } }
    },
  }),
  listLogs('/webhooks/logs', 'Delivery log, newest first, with every attempt'),
  listLogs('/webhooks/history', 'Delivery log (same as /webhooks/logs)'),
  defineRoute({
    method: 'post',
    path: '/webhooks/logs/:id/retry',
    summary: 'Deliver a dead-lettered (or delivered) delivery again',
    roles: 'admin',
    status: 202,
    handler: async ({ session, params }) => ({
      status: 202,
      body: { success: true, delivery: await session.retryWebhookDelivery(params.id!) },
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/webhooks/:id',
    summary: 'Delete a subscription',
    roles: 'admin',
    handler: async ({ session, params }) => {
      await session.deleteWebhook(params.id!)
      return { body: { success: true, deleted: params.id } }
    },
  }),
]

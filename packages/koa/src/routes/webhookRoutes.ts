import { notImplemented } from './notImplemented.js'

/** Webhook subscriptions and deliveries: 501 until the webhooks issue lands (replace this file). */
export const webhookRoutes = [
  notImplemented('post', '/webhooks/subscribe', 'Subscribe a URL to events', 'Webhooks'),
  notImplemented('get', '/webhooks/list', 'Active subscriptions', 'Webhooks'),
  notImplemented('get', '/webhooks/logs', 'Delivery history', 'Webhooks'),
  notImplemented('get', '/webhooks/history', 'Delivery history (same as /webhooks/logs)', 'Webhooks'),
  notImplemented('post', '/webhooks/logs/:id/retry', 'Redeliver a delivery', 'Webhooks'),
  notImplemented('delete', '/webhooks/:id', 'Delete a subscription', 'Webhooks'),
]

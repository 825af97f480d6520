import * as z from 'zod'
import { toCanonicalEventName } from '../schemas/eventNames.js'
import { out } from '../schemas/out.js'
import { displayTextSchema, pageFields } from '../schemas/primitives.js'

const eventName = z.string().refine((name) => name === '*' || toCanonicalEventName(name) !== undefined, {
  message:
    'Unknown event name (use a canonical name like tx.confirmed, its webhook spelling tx_confirmed, or *)',
})

/** `POST /webhooks/subscribe`: where to deliver and which events (either spelling, or `*`). */
export const subscribeWebhookSchema = z.strictObject({
  // Display text too: the dashboard shows the URL as given.
  url: displayTextSchema(2048).refine(
    (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
    {
      message: 'url must be an absolute http(s) URL',
    },
  ),
  events: z.array(eventName).min(1).max(50),
  description: displayTextSchema(200, { multiline: true }).optional(),
})
export type SubscribeWebhookParameters = z.input<typeof subscribeWebhookSchema>

export const listDeliveriesSchema = z.strictObject({
  subscriptionId: z.string().max(100).optional(),
  status: z.enum(['pending', 'delivered', 'dead']).optional(),
  ...pageFields({ defaultLimit: 50, maxLimit: 200 }),
})
export type ListDeliveriesParameters = z.input<typeof listDeliveriesSchema>

/** A subscription as the API shows it: never its secret. */
export const webhookSubscriptionSchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  url: z.string(),
  /** Canonical event names, or ['*'] for all. */
  events: z.array(z.string()),
  description: z.string().optional(),
  status: z.enum(['active', 'disabled']),
  disabledReason: z.string().optional(),
  createdBy: z.string(),
  createdAt: out.timestamp,
  updatedAt: out.timestamp,
})

/** One event to one subscription, with every attempt. */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  subscriptionId: z.string(),
  url: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  webhookEvent: z.string(),
  seq: z.number().int(),
  status: z.enum(['pending', 'delivered', 'dead']),
  attempts: z.array(
    z.object({
      at: out.timestamp,
      durationMs: z.number(),
      statusCode: z.number().int().nullable(),
      ok: z.boolean(),
      error: z.string().optional(),
      /** The first bytes of a public target's reply (never a private one's). */
      responseExcerpt: z.string().optional(),
      /** How long the reply was. */
      responseBytes: z.number().int().optional(),
    }),
  ),
  attemptBase: z.number().int(),
  nextAttemptAt: out.timestamp,
  createdAt: out.timestamp,
  updatedAt: out.timestamp,
})

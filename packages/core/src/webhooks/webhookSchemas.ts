import * as z from 'zod/mini'
import { toCanonicalEventName } from '../schemas/eventNames.js'
import { out } from '../schemas/out.js'
import { displayTextSchema, pageFields } from '../schemas/primitives.js'

const eventName = z.string().check(
  z.refine((name) => name === '*' || toCanonicalEventName(name) !== undefined, {
    message:
      'Unknown event name (use a canonical name like tx.confirmed, its webhook spelling tx_confirmed, or *)',
  }),
)

/** `POST /webhooks/subscribe`: where to deliver and which events (either spelling, or `*`). */
export const subscribeWebhookSchema = z.strictObject({
  // Display text too: the dashboard shows the URL as given.
  url: displayTextSchema(2048).check(
    z.refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
      message: 'url must be an absolute http(s) URL',
    }),
  ),
  events: z.array(eventName).check(z.minLength(1), z.maxLength(50)),
  description: z.optional(displayTextSchema(200, { multiline: true })),
})
export type SubscribeWebhookParameters = z.input<typeof subscribeWebhookSchema>

export const listDeliveriesSchema = z.strictObject({
  subscriptionId: z.optional(z.string().check(z.maxLength(100))),
  status: z.optional(z.enum(['pending', 'delivered', 'dead'])),
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
  description: z.optional(z.string()),
  status: z.enum(['active', 'disabled']),
  disabledReason: z.optional(z.string()),
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
  seq: z.number().check(z.int()),
  status: z.enum(['pending', 'delivered', 'dead']),
  attempts: z.array(
    z.object({
      at: out.timestamp,
      durationMs: z.number(),
      statusCode: z.nullable(z.number().check(z.int())),
      ok: z.boolean(),
      error: z.optional(z.string()),
      /** The first bytes of a public target's reply (never a private one's). */
      responseExcerpt: z.optional(z.string()),
      /** How long the reply was. */
      responseBytes: z.optional(z.number().check(z.int())),
    }),
  ),
  attemptBase: z.number().check(z.int()),
  nextAttemptAt: out.timestamp,
  createdAt: out.timestamp,
  updatedAt: out.timestamp,
})

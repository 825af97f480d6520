import { z } from 'zod'
import { toCanonicalEventName } from '../events/eventNames.js'
import { pageFields } from '../schemas/primitives.js'

const eventName = z.string().refine((name) => name === '*' || toCanonicalEventName(name) !== undefined, {
  message:
    'Unknown event name (use a canonical name like tx.confirmed, its webhook spelling tx_confirmed, or *)',
})

/** `POST /webhooks/subscribe`: where to deliver and which events (either spelling, or `*`). */
export const subscribeWebhookSchema = z.strictObject({
  url: z
    .string()
    .max(2048)
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
      message: 'url must be an absolute http(s) URL',
    }),
  events: z.array(eventName).min(1).max(50),
  description: z.string().max(200).optional(),
})
export type SubscribeWebhookParameters = z.input<typeof subscribeWebhookSchema>

export const listDeliveriesSchema = z.strictObject({
  subscriptionId: z.string().max(100).optional(),
  status: z.enum(['pending', 'delivered', 'dead']).optional(),
  ...pageFields({ defaultLimit: 50, maxLimit: 200 }),
})
export type ListDeliveriesParameters = z.input<typeof listDeliveriesSchema>

import { createHmac, randomBytes } from 'node:crypto'

/** A new signing secret in the Standard Webhooks format: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

/**
 * The Standard Webhooks headers for one delivery: `webhook-signature` is `v1,` + base64
 * HMAC-SHA256 over `id.timestamp.body`, keyed with the secret's bytes. The secret itself never
 * travels; the timestamp lets receivers refuse replays.
 * @example const headers = signWebhook({ secret, id: event.id, timestamp: 1700000000, body })
 */
export function signWebhook(parameters: { secret: string; id: string; timestamp: number; body: string }): {
  'webhook-id': string
  'webhook-timestamp': string
  'webhook-signature': string
} {
  const key = Buffer.from(parameters.secret.replace(/^whsec_/, ''), 'base64')
  const signature = createHmac('sha256', key)
    .update(`${parameters.id}.${parameters.timestamp}.${parameters.body}`)
    .digest('base64')
  return {
    'webhook-id': parameters.id,
    'webhook-timestamp': String(parameters.timestamp),
    'webhook-signature': `v1,${signature}`,
  }
}

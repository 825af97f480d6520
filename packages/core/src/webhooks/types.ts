import type { EventName } from '../events/eventNames.js'
import type { SealedSecret } from '../vault/seal.js'

/**
 * A webhook subscription. Its signing secret is shown once, at subscribe, and stored only sealed
 * with the master key (`sealedSecret`, bound to the subscription id).
 */
export type WebhookSubscriptionRecord = {
  id: string
  tenantId: string
  url: string
  /** Canonical event names, or ['*'] for all. */
  events: Array<EventName | '*'>
  description?: string | undefined
  /** The signing secret (`whsec_…`) sealed with the master key; the subscription id is its associated data. */
  sealedSecret?: SealedSecret | undefined
  /**
   * The plaintext secret of a record written before secrets were sealed. Still read; replaced by
   * `sealedSecret` at start (`sealLegacyWebhookSecrets`) or at the subscription's next delivery pass.
   */
  secret?: string | undefined
  status: 'active' | 'disabled'
  disabledReason?: string | undefined
  /** Highest event seq of the tenant already turned into deliveries. */
  cursor: number
  /** Dead-lettered deliveries in a row; reset by a success. */
  consecutiveDeadLetters: number
  createdBy: string
  createdAt: string
  updatedAt: string
}

export type WebhookAttempt = {
  at: string
  durationMs: number
  /** HTTP status, or null when no response came (network error, timeout). */
  statusCode: number | null
  ok: boolean
  error?: string | undefined
  /** Bytes of the response body (counted up to 1 MiB, where reading stops). */
  responseBytes?: number | undefined
  /**
   * The first 500 characters of the response body, for debugging receivers: public targets only.
   * A target the operator allowed on a private address never has one (it would let a tenant admin
   * read an internal service's replies).
   */
  responseExcerpt?: string | undefined
}

/** One event to one subscription, with every attempt. Delivered in seq order per subscription. */
export type WebhookDeliveryRecord = {
  id: string
  tenantId: string
  subscriptionId: string
  url: string
  eventId: string
  /** Canonical name and the webhook spelling sent on the wire. */
  eventType: EventName
  webhookEvent: string
  seq: number
  status: 'pending' | 'delivered' | 'dead'
  attempts: WebhookAttempt[]
  /** Attempts before this index belong to an earlier round (before a manual retry). */
  attemptBase: number
  nextAttemptAt: string
  createdAt: string
  updatedAt: string
}

import type { EventName } from '../schemas/eventNames.js'
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
  /**
   * Delivered entries kept in this subscription's `webhook_delivery_batches` records, so the log
   * counts them without reading the batches (absent on records from before batches: none).
   */
  batchedDeliveries?: number | undefined
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

/** A first attempt that was answered with a 2xx: all a batched delivery keeps of it. */
export type BatchedAttempt = Pick<
  WebhookAttempt,
  'at' | 'durationMs' | 'responseBytes' | 'responseExcerpt'
> & {
  statusCode: number
}

/** One delivery in a batch record, delivered at its first attempt. */
export type BatchedDelivery = Pick<
  WebhookDeliveryRecord,
  'seq' | 'eventId' | 'eventType' | 'webhookEvent'
> & {
  attempt: BatchedAttempt
}

/**
 * The deliveries of one delivery pass that succeeded at once, in one record instead of one each
 * (`webhook_delivery_batches`). The log lists each as a delivered `WebhookDeliveryRecord` with its
 * stable id; a retry moves it out into `webhook_deliveries`.
 */
export type WebhookDeliveryBatchRecord = {
  /** `whb_<subscription>_<seq of the first delivery>`. */
  id: string
  tenantId: string
  subscriptionId: string
  url: string
  /** Seq of the first delivery, for finding the batch that holds a delivery id. */
  firstSeq: number
  /** The newest attempt's time: orders batches for the newest-first log. */
  lastAt: string
  /** In seq order; never empty (a batch whose last delivery was moved out is deleted). */
  deliveries: BatchedDelivery[]
  createdAt: string
  updatedAt: string
}

/**
 * What a deleted subscription still has in batch records (`webhook_retired_counts`, id = the
 * subscription id): its log outlives it, and this keeps that log's count.
 */
export type WebhookRetiredCountRecord = {
  id: string
  tenantId: string
  batchedDeliveries: number
}

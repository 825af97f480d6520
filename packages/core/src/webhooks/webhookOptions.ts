/** How the delivery worker behaves; defaults in `defaultWebhookOptions`. */
export type WebhookOptions = {
  /** Deliver to private/loopback addresses (AGENTWALLET_ALLOW_PRIVATE_WEBHOOKS=true at the edge). */
  allowPrivateTargets: boolean
  /** Attempts per delivery before it is dead-lettered. */
  maxAttempts: number
  timeoutMs: number
  backoffBaseMs: number
  backoffMaxMs: number
  /** A subscription is disabled after this many dead-lettered deliveries in a row. */
  disableAfterDeadLetters: number
  /** How often the worker looks for new events and due retries. */
  intervalMs: number
}

export const defaultWebhookOptions: WebhookOptions = {
  allowPrivateTargets: false,
  maxAttempts: 8,
  timeoutMs: 10_000,
  backoffBaseMs: 1_000,
  backoffMaxMs: 60 * 60 * 1000,
  disableAfterDeadLetters: 5,
  intervalMs: 500,
}

import type { AgentWalletContext } from '../context.js'
import { appendEvent } from '../events/appendEvent.js'
import type { StorageTx } from '../storage/types.js'
import { computeBackoff, isRetryable } from './computeBackoff.js'
import { auditWebhookChange } from './manageWebhooks.js'
import type { WebhookAttempt, WebhookDeliveryRecord, WebhookSubscriptionRecord } from './types.js'

/** What one attempt made of a delivery, and of its subscription's run of dead letters. */
export type Settled = {
  delivery: WebhookDeliveryRecord
  deadInARow: number
  /** The run reached `disableAfterDeadLetters`: the subscription is to be disabled. */
  disable: boolean
}

/**
 * Attempt errors that no retry can fix: a target that resolves to a private address, and a sealed
 * secret that fails authentication (moved from another subscription, or altered). A
 * `master_key_mismatch` is retried: another replica, or this one restarted with the right key, can sign.
 */
const permanentErrors = new Set<string | undefined>(['private_address', 'key_decryption_failed'])

/**
 * The delivery after `attempt`: delivered, pending with its next attempt backed off, or dead once
 * the attempt is final (a 4xx, a permanent error) or the budget is spent.
 * @example const settled = settleAttempt(ctx, subscription, delivery, attempt)
 */
export function settleAttempt(
  ctx: AgentWalletContext,
  subscription: Pick<WebhookSubscriptionRecord, 'consecutiveDeadLetters'>,
  delivery: WebhookDeliveryRecord,
  attempt: WebhookAttempt,
): Settled {
  const options = ctx.options.webhooks
  const attempts = [...delivery.attempts, attempt]
  const used = attempts.length - delivery.attemptBase
  const now = ctx.now()
  const status: WebhookDeliveryRecord['status'] = attempt.ok
    ? 'delivered'
    : isRetryable(attempt.statusCode) && !permanentErrors.has(attempt.error) && used < options.maxAttempts
      ? 'pending'
      : 'dead'
  const backoff = computeBackoff(used, { baseMs: options.backoffBaseMs, maxMs: options.backoffMaxMs })
  const deadInARow =
    status === 'dead'
      ? subscription.consecutiveDeadLetters + 1
      : status === 'delivered'
        ? 0
        : subscription.consecutiveDeadLetters
  return {
    delivery: {
      ...delivery,
      attempts,
      status,
      nextAttemptAt:
        status === 'pending' ? new Date(now.getTime() + backoff).toISOString() : delivery.nextAttemptAt,
      updatedAt: now.toISOString(),
    },
    deadInARow,
    disable: deadInARow >= options.disableAfterDeadLetters,
  }
}

/**
 * Writes the subscription's side of settled attempts in `tx`: its run of dead letters, its cursor
 * when given, the deliveries it `batched` (added to its count of batched deliveries), and its
 * disabling (with the `webhook.disabled` event) when the run got too long.
 * @example await saveSubscriptionOutcome(ctx, tx, subscription.id, last, { cursor, batched: 12 })
 */
export async function saveSubscriptionOutcome(
  ctx: AgentWalletContext,
  tx: StorageTx,
  subscriptionId: string,
  { deadInARow, disable }: Pick<Settled, 'deadInARow' | 'disable'>,
  { cursor, batched = 0 }: { cursor?: number; batched?: number } = {},
): Promise<void> {
  const current = await tx.get('webhook_subscriptions', subscriptionId)
  if (!current) return
  const reason = `${deadInARow} deliveries in a row were dead-lettered`
  await tx.put('webhook_subscriptions', {
    ...current,
    ...(cursor === undefined ? {} : { cursor }),
    ...(batched === 0 ? {} : { batchedDeliveries: (current.batchedDeliveries ?? 0) + batched }),
    consecutiveDeadLetters: deadInARow,
    ...(disable ? { status: 'disabled', disabledReason: reason } : {}),
    updatedAt: ctx.now().toISOString(),
  })
  if (disable) {
    appendEvent(ctx, tx, current.tenantId, 'webhook.disabled', {
      subscriptionId: current.id,
      url: current.url,
      reason,
    })
    auditWebhookChange(ctx, tx, current, 'disabled', { by: 'service', reason })
  }
}

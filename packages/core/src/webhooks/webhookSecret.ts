import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { type SealedSecret, seal, unseal } from '../vault/seal.js'
import type { WebhookSubscriptionRecord } from './types.js'

/** Associated data of a subscription's sealed secret: the ciphertext opens on this subscription only. */
const sealContext = (subscriptionId: string) => `agentwallet/webhook-secret/v1:${subscriptionId}`

/**
 * Seals a signing secret for storage on subscription `subscriptionId`; `validation_failed` when no
 * master key is configured (durable storage with a caller-supplied vault): we never store it in clear.
 * @example const sealedSecret = sealWebhookSecret(ctx, record.id, newWebhookSecret())
 */
export function sealWebhookSecret(
  ctx: AgentWalletContext,
  subscriptionId: string,
  secret: string,
): SealedSecret {
  if (!ctx.secrets) {
    throw new BaseError(
      'validation_failed',
      'Webhook signing secrets are sealed with the master key: configure masterKey (AGENTWALLET_MASTER_KEY)',
      { details: { storage: ctx.storage.name } },
    )
  }
  return ctx.secrets.seal(secret, sealContext(subscriptionId))
}

/**
 * The plaintext signing secret of a subscription, for signing one delivery and nothing else. Reads
 * both forms: `sealedSecret`, and the plaintext `secret` of records written before sealing.
 * Rejects with `master_key_mismatch` (another or no master key) or `key_decryption_failed`
 * (the ciphertext belongs to another subscription, or was altered).
 * @example const headers = signWebhook({ secret: openWebhookSecret(ctx, subscription), id, timestamp, body })
 */
export function openWebhookSecret(ctx: AgentWalletContext, subscription: WebhookSubscriptionRecord): string {
  const { sealedSecret } = subscription
  if (sealedSecret) {
    if (!ctx.secrets) {
      throw new BaseError('master_key_mismatch', 'No master key is configured to open this webhook secret', {
        details: { subscriptionId: subscription.id, expectedKeyId: sealedSecret.keyId },
      })
    }
    return ctx.secrets.open(sealedSecret, sealContext(subscription.id))
  }
  if (subscription.secret !== undefined) return subscription.secret
  throw new BaseError('key_decryption_failed', 'The webhook subscription has no signing secret', {
    details: { subscriptionId: subscription.id },
  })
}

/**
 * The record with a plaintext (pre-sealing) secret replaced by its sealed form; the same object when
 * there is nothing to seal, or no master key to seal with.
 * @example const sealed = withSealedWebhookSecret(ctx, legacyRecord)
 */
export function withSealedWebhookSecret(
  ctx: AgentWalletContext,
  record: WebhookSubscriptionRecord,
): WebhookSubscriptionRecord {
  if (record.secret === undefined || !ctx.secrets) return record
  const { secret, ...rest } = record
  // A record that somehow holds both keeps its sealed secret; the plaintext copy just goes.
  return { ...rest, sealedSecret: rest.sealedSecret ?? sealWebhookSecret(ctx, record.id, secret) }
}

/**
 * A subscription's signing secret sealed under `to`: its sealed form opened under `from`, or the
 * plaintext `secret` of a record written before sealing. For master key rotation; rejects with
 * `master_key_mismatch` or `key_decryption_failed` when the sealed secret does not open under `from`.
 * @example const sealedSecret = resealWebhookSecret(subscription, oldKey, newKey)
 */
export function resealWebhookSecret(
  subscription: WebhookSubscriptionRecord,
  from: Uint8Array,
  to: Uint8Array,
): SealedSecret {
  const context = sealContext(subscription.id)
  const { sealedSecret, secret } = subscription
  if (sealedSecret) {
    const plaintext = unseal(from, sealedSecret, context)
    try {
      return seal(to, plaintext, context)
    } finally {
      plaintext.fill(0)
    }
  }
  if (secret !== undefined) return seal(to, Buffer.from(secret, 'utf8'), context)
  throw new BaseError('key_decryption_failed', 'The webhook subscription has no signing secret', {
    details: { subscriptionId: subscription.id },
  })
}

import { lookup } from 'node:dns/promises'
import { ValidationError } from '../errors/errors.js'
import { assertCidrList } from './judgeAddress.js'

/** Resolves a host name to every address it has, as `dns.lookup(host, { all: true })` does. */
export type WebhookLookup = (hostname: string) => Promise<readonly { address: string; family: number }[]>

/** How the delivery worker behaves; defaults in `defaultWebhookOptions`. */
export type WebhookOptions = {
  /**
   * CIDRs of special-purpose addresses (loopback, private, link-local, …) that webhooks may target
   * anyway, e.g. `['127.0.0.0/8', '::1/128']`; every other one is refused (SSRF). Default none.
   * At the CLI: `AGENTWALLET_ALLOW_PRIVATE_WEBHOOKS=127.0.0.0/8,::1/128`.
   */
  allowPrivateTargets: readonly string[]
  /** Resolves target host names, once per attempt; the connection goes to the address judged. */
  lookup: WebhookLookup
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
  allowPrivateTargets: [],
  lookup: (hostname) => lookup(hostname, { all: true }),
  maxAttempts: 8,
  timeoutMs: 10_000,
  backoffBaseMs: 1_000,
  backoffMaxMs: 60 * 60 * 1000,
  disableAfterDeadLetters: 5,
  intervalMs: 500,
}

/**
 * The defaults with a caller's settings over them, the private-target allowance checked first so a
 * bad CIDR stops the start instead of a delivery. `true`, the old all-or-nothing switch, is refused:
 * whoever relied on it names the ranges now rather than silently keep "allow everything".
 * @example const options = resolveWebhookOptions({ allowPrivateTargets: ['127.0.0.0/8'] })
 */
export function resolveWebhookOptions(options: Partial<WebhookOptions> = {}): WebhookOptions {
  const allowed: unknown = options.allowPrivateTargets ?? []
  if (!Array.isArray(allowed))
    throw new ValidationError(
      'webhooks.allowPrivateTargets is a list of CIDRs (e.g. ["127.0.0.0/8", "::1/128"]), no longer true or false',
      { details: { allowPrivateTargets: String(allowed) } },
    )
  return { ...defaultWebhookOptions, ...options, allowPrivateTargets: assertCidrList(allowed) }
}

import { isIP } from 'node:net'
import { ValidationError } from '../errors/errors.js'
import { judgeAddress } from './judgeAddress.js'
import type { WebhookOptions } from './webhookOptions.js'

/** Where one delivery goes: the URL, and the address its host was judged by, to connect to. */
export type WebhookTarget = {
  url: URL
  address: string
  family: 4 | 6
  /** The address is special-purpose (loopback, private, …) and allowed only by the operator's CIDRs. */
  private: boolean
}

/**
 * Resolves a webhook URL's host once and judges every address it answers (`judgeAddress`): one
 * refused address refuses the target (SSRF). The first address is the one to connect to, so a DNS
 * answer that changes after the check (rebinding) cannot move the connection. Called at subscribe
 * and before every attempt. Throws `validation_failed` with `details.reason` `private_address` or
 * `unresolvable`.
 * @example const target = await resolveWebhookTarget('https://example.com/hook', ctx.options.webhooks)
 */
export async function resolveWebhookTarget(
  url: string,
  options: Pick<WebhookOptions, 'allowPrivateTargets' | 'lookup'>,
): Promise<WebhookTarget> {
  const parsed = new URL(url)
  const host = parsed.hostname.replace(/^\[|\]$/g, '')
  const addresses = isIP(host)
    ? [host]
    : await options.lookup(host).then(
        (found) => found.map((entry) => entry.address),
        () => [],
      )
  const [address] = addresses
  if (address === undefined)
    throw new ValidationError('The webhook host does not resolve', {
      details: { host, reason: 'unresolvable' },
    })
  const standings = addresses.map((each) => judgeAddress(each, options.allowPrivateTargets))
  if (standings.includes('refused'))
    throw new ValidationError(
      'Webhook targets on loopback, private or other special-purpose addresses are refused (the operator can allow ranges)',
      { details: { host, reason: 'private_address' } },
    )
  return { url: parsed, address, family: isIP(address) === 4 ? 4 : 6, private: standings[0] === 'allowed' }
}

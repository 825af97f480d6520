import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'
import { ValidationError } from '../errors/errors.js'

// Loopback, private, link-local, CGNAT, unspecified, multicast and reserved ranges (v4 and v6).
const privateRanges = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  privateRanges.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  privateRanges.addSubnet(network, prefix, 'ipv6')
}

/** True for loopback/private/link-local/reserved addresses, including IPv4-mapped IPv6. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]
  if (mapped) return privateRanges.check(mapped, 'ipv4')
  const family = isIP(address)
  if (family === 0) return true
  return privateRanges.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/**
 * Refuses a webhook URL whose host resolves to a private or loopback address (SSRF), unless the
 * operator allowed such targets. Checked at subscribe and again before every delivery, so a DNS
 * answer that changes later (rebinding) is caught too.
 * @example await assertPublicTarget('https://example.com/hook', { allowPrivate: false })
 */
export async function assertPublicTarget(url: string, options: { allowPrivate: boolean }): Promise<void> {
  if (options.allowPrivate) return
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '')
  const addresses = isIP(host)
    ? [host]
    : await lookup(host, { all: true }).then(
        (found) => found.map((entry) => entry.address),
        () => {
          throw new ValidationError('The webhook host does not resolve', { details: { host } })
        },
      )
  if (addresses.some(isPrivateAddress)) {
    throw new ValidationError(
      'Webhook targets on private or loopback addresses are refused (the operator can allow them)',
      { details: { host, reason: 'private_address' } },
    )
  }
}

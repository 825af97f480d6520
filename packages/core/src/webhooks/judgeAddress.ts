import { BlockList, isIP } from 'node:net'
import { ValidationError } from '../errors/errors.js'
import { embeddedIpv4Forms, specialPurposeRanges } from './specialPurposeRanges.js'

type Family = 'ipv4' | 'ipv6'

/**
 * CIDRs kept in one BlockList per family and each address checked against its own family's list:
 * node's BlockList matches an IPv4 rule against IPv4-mapped IPv6 and an `::ffff:0:0/96` rule against
 * every IPv4 address, so one mixed list would make `::ffff:0:0/96` stand for all of IPv4.
 */
type CidrSet = Record<Family, BlockList>

/**
 * Where a webhook may go: `public` (no special-purpose range), `allowed` (special-purpose, but inside
 * the operator's CIDRs) or `refused`.
 */
export type AddressStanding = 'public' | 'allowed' | 'refused'

const special = cidrSet(specialPurposeRanges.map((range) => range.cidr))
const forms = embeddedIpv4Forms.map((form) => ({
  ...form,
  range: cidrSet([form.cidr]).ipv6,
  except: cidrSet(form.except ? [form.except] : []).ipv6,
}))

/**
 * Judges one IP address as a webhook target. An IPv6 address that carries an IPv4 one (mapped,
 * compatible, translated, NAT64, 6to4, Teredo) is judged as the IPv6 address and as each IPv4 it
 * carries, and passes only if every one of them is public or allowed.
 * @example judgeAddress('64:ff9b::7f00:1') // 'refused'
 * @example judgeAddress('127.0.0.1', ['127.0.0.0/8']) // 'allowed'
 */
export function judgeAddress(address: string, allowed: readonly string[] = []): AddressStanding {
  const family = isIP(address)
  // A zone id (fe80::1%eth0) names a local interface: nothing public has one.
  if (family === 0 || address.includes('%')) return 'refused'
  const allowance = cidrSet(allowed)
  const views = family === 4 ? [address] : [address, ...embeddedIpv4(address)]
  let standing: AddressStanding = 'public'
  for (const view of views) {
    const viewFamily: Family = isIP(view) === 4 ? 'ipv4' : 'ipv6'
    if (!special[viewFamily].check(view, viewFamily)) continue
    if (!allowance[viewFamily].check(view, viewFamily)) return 'refused'
    standing = 'allowed'
  }
  return standing
}

/**
 * Checks an operator's list of CIDRs (`127.0.0.0/8`, `::1/128`; a bare address is one host) and
 * answers it unchanged, or throws `validation_failed` naming the first bad entry.
 * @example assertCidrList(['127.0.0.0/8', '::1/128'])
 */
export function assertCidrList(cidrs: readonly string[]): readonly string[] {
  cidrSet(cidrs)
  return cidrs
}

function cidrSet(cidrs: readonly string[]): CidrSet {
  const set: CidrSet = { ipv4: new BlockList(), ipv6: new BlockList() }
  for (const cidr of cidrs) {
    const [network = '', prefixText, extra] = String(cidr).trim().split('/')
    const family = isIP(network)
    const bits = family === 4 ? 32 : 128
    const prefix = prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : -1
    if (family === 0 || network.includes('%') || extra !== undefined || prefix < 0 || prefix > bits)
      throw new ValidationError(`"${String(cidr)}" is not a CIDR (e.g. 127.0.0.0/8 or ::1/128)`, {
        details: { cidr: String(cidr) },
      })
    const type: Family = family === 4 ? 'ipv4' : 'ipv6'
    set[type].addSubnet(network, prefix, type)
  }
  return set
}

/** The IPv4 addresses an IPv6 address carries, by every form whose range it is in. */
function embeddedIpv4(address: string): string[] {
  const bytes = ipv6Bytes(address)
  return forms
    .filter((form) => form.range.check(address, 'ipv6') && !form.except.check(address, 'ipv6'))
    .flatMap((form) => form.at.map((offsets) => offsets.map((at) => bytes[at]! ^ (form.xor ?? 0)).join('.')))
}

/** The 16 bytes of an IPv6 address; the URL parser first writes it canonically (hex groups, one `::`). */
function ipv6Bytes(address: string): number[] {
  const canonical = new URL(`http://[${address}]`).hostname.slice(1, -1)
  const [head = '', tail] = canonical.split('::')
  const groups = (part: string) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : [])
  const left = groups(head)
  const right = tail === undefined ? [] : groups(tail)
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right]
  return all.flatMap((group) => [group >> 8, group & 0xff])
}

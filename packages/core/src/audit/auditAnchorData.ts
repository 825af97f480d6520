import { createHash } from 'node:crypto'

/** What an anchor transaction carries: a tenant's chain value `head` through entry `upto`. */
export type AnchoredHead = { tenantTag: string; upto: number; head: string }

// "AWA1": AgentWallet audit anchor, version 1. Then the tenant's tag (32 bytes), upto (8), head (32).
const magic = '41574131'
const dataLength = 2 + 2 * (4 + 32 + 8 + 32)

/**
 * The tenant's tag in an anchor: sha256 of its id under a domain label, so the chain does not name
 * the operator's tenants, and an auditor given the id finds its anchors.
 * @example anchorTenantTag('default')
 */
export function anchorTenantTag(tenantId: string): string {
  return createHash('sha256').update(`agentwallet.audit.anchor:${tenantId}`).digest('hex')
}

/**
 * The calldata of an anchor transaction (a self-send from the anchor account): 76 bytes.
 * @example encodeAnchorData('default', { upto: 101, head })
 */
export function encodeAnchorData(
  tenantId: string,
  { upto, head }: { upto: number; head: string },
): `0x${string}` {
  if (!/^[0-9a-f]{64}$/.test(head)) throw new TypeError('An anchored head is 32 bytes, hex')
  return `0x${magic}${anchorTenantTag(tenantId)}${upto.toString(16).padStart(16, '0')}${head}`
}

/** The head an anchor transaction's calldata carries, or undefined for any other calldata. */
export function decodeAnchorData(data: string): AnchoredHead | undefined {
  const hex = data.toLowerCase()
  if (hex.length !== dataLength || !hex.startsWith(`0x${magic}`) || !/^0x[0-9a-f]*$/.test(hex))
    return undefined
  const upto = Number.parseInt(hex.slice(74, 90), 16)
  if (!Number.isSafeInteger(upto) || upto < 1) return undefined
  return { tenantTag: hex.slice(10, 74), upto, head: hex.slice(90) }
}

import { formatAmount } from '../utils/amounts.js'

/**
 * A decision's amount fields: the decimal figure in asset units plus the raw base units.
 * @example amountDetails('limit', 10n ** 18n, 18) // { limit: '1', limitRaw: '1000000000000000000' }
 */
export function amountDetails<Name extends string>(
  name: Name,
  raw: bigint,
  decimals: number,
): Record<Name | `${Name}Raw`, string> {
  return { [name]: formatAmount(raw, decimals), [`${name}Raw`]: raw.toString() } as Record<
    Name | `${Name}Raw`,
    string
  >
}

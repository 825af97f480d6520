import { parseAmount } from '../utils/amounts.js'

/**
 * Converts a rule's decimal limit into the intent asset's base units, rounding DOWN digits the
 * asset cannot hold — a rule written for an 18-decimal asset must never loosen on a 6-decimal one.
 * @example limitToBaseUnits('1.2345678', 6) // 1234567n
 */
export function limitToBaseUnits(limit: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = limit.split('.')
  const kept = fraction.slice(0, decimals)
  return parseAmount(kept ? `${whole}.${kept}` : whole, decimals)
}

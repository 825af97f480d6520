import { ValidationError } from '../errors/errors.js'
import type { ChainFamily } from '../vault/types.js'
import { type ScreenedAddress, screenedAddress } from './screenedAddress.js'

/**
 * Every address checked in its family's form, or `validation_failed` naming each bad one by its
 * index under `field` (nothing is listed when one is wrong).
 * @example const checked = checkScreenedAddresses('evm', ['0xabc…'], 'addresses')
 */
export function checkScreenedAddresses(
  family: ChainFamily,
  addresses: readonly string[],
  field: (index: number) => (string | number)[],
): ScreenedAddress[] {
  const checked = addresses.map((address) => screenedAddress(family, address))
  const issues = checked.flatMap((result, index) =>
    result.ok ? [] : [{ path: field(index), message: `Not a ${family} address: ${result.reason}` }],
  )
  if (issues.length > 0)
    throw new ValidationError('Invalid address(es) for the list', { details: { family, issues } })
  return checked as ScreenedAddress[]
}

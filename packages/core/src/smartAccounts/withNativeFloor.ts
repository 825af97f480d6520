import type { CompiledPermissions } from './permissionsFromRules.js'
import type { SessionPermissions } from './sessionPermissions.js'

/**
 * The compiled permissions, with `floor` as the native coin's bounds when the rules put none on chain
 * (no `max_per_tx` or `spend_limit` of it the enforcers can hold: no rules yet, or only rules judged off
 * chain). A session key is a hot key: what the chain holds when the server does not must never be the
 * wallet's whole balance. `floored` says whether the floor was taken.
 * @example const { permissions, floored } = withNativeFloor(compiled, { perCall: parseEther('1') })
 */
export function withNativeFloor(
  compiled: CompiledPermissions,
  floor: SessionPermissions['native'],
): CompiledPermissions & { floored: boolean } {
  const native = compiled.permissions.native
  const bounded = native?.perCall !== undefined || native?.allowance !== undefined
  if (bounded || !floor) return { ...compiled, floored: false }
  return { ...compiled, permissions: { ...compiled.permissions, native: floor }, floored: true }
}

import type { Principal } from './types.js'

/**
 * The calling key as core sees it: its id, role and tenant (and whether it is the operator's root).
 * @example const { role } = await whoAmI(ctx, principal, {})
 */
export async function whoAmI(
  _ctx: unknown,
  principal: Principal,
  _input: Record<string, never>,
): Promise<{ keyId: string; role: Principal['role']; tenantId: string; root: boolean }> {
  return {
    keyId: principal.id,
    role: principal.role,
    tenantId: principal.tenantId,
    root: principal.root === true,
  }
}

import { ForbiddenError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import type { Caller, OperationContract } from '../schemas/defineContract.js'

/**
 * Whether the principal's role is among the operation's declared callers. `root` is the operator's
 * root admin; a root admin is also an `admin` of its own tenant.
 * @example mayCall(principal, operations.send.roles)
 */
export function mayCall(principal: Principal, roles: readonly Caller[]): boolean {
  if (roles.includes(principal.role)) return true
  return principal.role === 'admin' && principal.root === true && roles.includes('root')
}

/**
 * Refuses (`forbidden`) a principal the operation does not declare. Which wallets an allowed
 * caller reaches is decided where the wallet is looked up: an agent only ever finds its own.
 * @example authorize(principal, operation)
 */
export function authorize(principal: Principal, operation: Pick<OperationContract, 'name' | 'roles'>): void {
  if (mayCall(principal, operation.roles)) return
  throw new ForbiddenError(`A key of role ${principal.role} may not call ${operation.name}`, {
    details: { operation: operation.name, role: principal.role, allowed: [...operation.roles] },
  })
}

/** Roles of DESIGN §6: an agent acts on its own wallets; approvers resolve approvals; admins do everything. */
export type Role = 'agent' | 'approver' | 'admin'

/** Who is calling: an API key (or the in-process owner) within one tenant. */
export type Principal = {
  tenantId: string
  /** Stable id of the caller (the API key id); wallets an agent creates are owned by it. */
  id: string
  role: Role
}

/** The principal of in-process use: the admin of the default tenant. */
export const localPrincipal: Principal = { tenantId: 'default', id: 'local', role: 'admin' }

import type { Role } from './apiKeySchemas.js'

/** Who is calling: an API key (or the in-process owner) within one tenant. */
export type Principal = {
  tenantId: string
  /** Stable id of the caller (the API key id); wallets an agent creates are owned by it. */
  id: string
  role: Role
  /** The operator's root admin (of the default tenant): may also create tenants. */
  root?: boolean | undefined
}

/** The principal of in-process use: the root admin of the default tenant. */
export const localPrincipal: Principal = { tenantId: 'default', id: 'local', role: 'admin', root: true }

/** The tenant every single-tenant deployment lives in; the root admin's tenant. */
export const defaultTenantId = 'default'

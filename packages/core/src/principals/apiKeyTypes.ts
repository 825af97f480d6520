import type { Role } from './apiKeySchemas.js'

/** A stored API key: only the SHA-256 of the raw key is kept, never the key itself. */
export type ApiKeyRecord = {
  id: string
  tenantId: string
  name: string
  role: Role
  /** The first characters of the raw key, so an operator can tell keys apart in a listing. */
  prefix: string
  /** Hex SHA-256 of the raw key (indexed: authentication looks keys up by it). */
  hash: string
  root?: boolean | undefined
  createdAt: string
  createdBy?: string | undefined
  revokedAt?: string | undefined
}

/** An API key as listings show it: no hash. */
export type ApiKeyView = Omit<ApiKeyRecord, 'hash'>

export type TenantRecord = { id: string; name: string; createdAt: string; createdBy?: string | undefined }

/** Collections of the principals module. */
export const apiKeysCollection = 'api_keys'
export const tenantsCollection = 'tenants'

export function toApiKeyView({ hash: _hash, ...view }: ApiKeyRecord): ApiKeyView {
  return view
}

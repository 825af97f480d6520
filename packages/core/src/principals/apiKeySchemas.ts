import * as z from 'zod/mini'
import { out } from '../schemas/out.js'
import { displayTextSchema } from '../schemas/primitives.js'

/** Roles of DESIGN §6: an agent acts on its own wallets; approvers resolve approvals; admins do everything. */
export type Role = 'agent' | 'approver' | 'admin'

export const roles = ['agent', 'approver', 'admin'] as const satisfies readonly Role[]

/** A key's or a tenant's name: shown in listings and the dashboard. */
const name = displayTextSchema(100).check(z.minLength(1, 'name must not be empty'))

export const createApiKeySchema = z.strictObject({ name, role: z.enum(roles) })
export type CreateApiKeyParameters = z.input<typeof createApiKeySchema>

export const createTenantSchema = z.strictObject({ name })
export type CreateTenantParameters = z.input<typeof createTenantSchema>

/** An operator-chosen key (`AGENTWALLET_ADMIN_KEY`): printable, and long enough to be a secret. */
export const providedKeySchema = z
  .string()
  .check(
    z.regex(
      /^[\x21-\x7e]{24,200}$/,
      'An API key must be 24 to 200 printable ASCII characters without spaces',
    ),
  )

/** An API key as listings show it: never its hash. */
export const apiKeySchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  name: z.string(),
  role: z.enum(roles),
  /** The first characters of the raw key, to tell keys apart. */
  prefix: z.string(),
  root: z.optional(z.boolean()),
  createdAt: out.timestamp,
  createdBy: z.optional(z.string()),
  revokedAt: z.optional(out.timestamp),
})

export const tenantSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: out.timestamp,
  createdBy: z.optional(z.string()),
})

/** Who a key id is, as approvals and history show people: a name and a role, nothing else. */
export const keyNameSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(roles),
  revoked: z.boolean(),
})

export type KeyName = z.infer<typeof keyNameSchema>

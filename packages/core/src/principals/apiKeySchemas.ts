import { z } from 'zod'
import { roles } from './types.js'

const name = z.string().trim().min(1, 'name must not be empty').max(100)

export const createApiKeySchema = z.strictObject({ name, role: z.enum(roles) })
export type CreateApiKeyParameters = z.input<typeof createApiKeySchema>

export const createTenantSchema = z.strictObject({ name })
export type CreateTenantParameters = z.input<typeof createTenantSchema>

/** An operator-chosen key (`AGENTWALLET_ADMIN_KEY`): printable, and long enough to be a secret. */
export const providedKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{24,200}$/, 'An API key must be 24 to 200 printable ASCII characters without spaces')

import * as z from 'zod/mini'
import { defineContracts } from '../schemas/defineContract.js'
import {
  apiKeySchema,
  createApiKeySchema,
  createTenantSchema,
  keyNameSchema,
  roles,
  tenantSchema,
} from './apiKeySchemas.js'

const rawKey = z.string().check(z.describe('The raw key: shown this once, only its hash is stored'))

/** The calling key, API keys of the caller's tenant, and tenants (root admin). (contracts: what each operation takes, answers and may fail with) */
export const principalContract = defineContracts({
  whoAmI: {
    summary: 'The calling key: its id, role and tenant',
    description:
      'Who the calling API key is: its key id, its role (agent, approver or admin), its tenant, and whether it is the operator’s root key.',
    input: z.strictObject({}),
    output: z.object({
      keyId: z.string(),
      role: z.enum(roles),
      tenantId: z.string(),
      root: z.boolean(),
    }),
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/api-keys/me', status: 200 },
    errors: [],
    tool: false,
  },
  createApiKey: {
    summary: 'Issue an API key in the caller’s tenant (admin); the raw key is shown once',
    description: 'Issue an API key of a role (agent, approver, admin) in the caller’s tenant.',
    input: createApiKeySchema,
    output: z.object({ apiKey: apiKeySchema, key: rawKey }),
    roles: ['admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'post', path: '/api-keys', status: 201 },
    errors: [],
    tool: false,
  },
  listApiKeys: {
    summary: 'API keys of the caller’s tenant, without secrets (admin)',
    description: 'The API keys of the caller’s tenant, revoked ones too, never their secrets.',
    input: z.strictObject({}),
    output: z.object({ count: z.number().check(z.int()), apiKeys: z.array(apiKeySchema) }),
    roles: ['admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/api-keys', status: 200 },
    errors: [],
    tool: false,
  },
  listKeyNames: {
    summary:
      'Names and roles of the tenant’s API keys, to show who asked and who decided (approver or admin)',
    description:
      'The name and role of every API key of the caller’s tenant (revoked ones too), by key id: approvals name people by key id (requestedBy, resolvedBy). Approvers and admins; agents never learn other keys’ names.',
    input: z.strictObject({}),
    output: z.object({ keys: z.array(keyNameSchema) }),
    roles: ['approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/api-keys/names', status: 200 },
    errors: [],
    tool: false,
  },
  revokeApiKey: {
    summary: 'Revoke an API key of the caller’s tenant (admin)',
    description:
      'Revoke an API key of the caller’s tenant: it stops authenticating at once and its open WebSocket streams close.',
    input: z.strictObject({
      keyId: z.string().check(z.minLength(1), z.maxLength(100), z.describe('The key id (key_…)')),
    }),
    output: z.object({ apiKey: apiKeySchema }),
    roles: ['admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'delete', path: '/api-keys/:keyId', status: 200 },
    errors: ['not_found'],
    tool: false,
  },
  createTenant: {
    summary: 'Create a tenant and its first admin key (root admin only); the raw key is shown once',
    description: 'Create a tenant and its first admin key. The operator’s root admin key only.',
    input: createTenantSchema,
    output: z.object({ tenant: tenantSchema, apiKey: apiKeySchema, key: rawKey }),
    roles: ['root'],
    idempotent: false,
    movesValue: false,
    http: { method: 'post', path: '/tenants', status: 201 },
    errors: ['conflict'],
    tool: false,
  },
})

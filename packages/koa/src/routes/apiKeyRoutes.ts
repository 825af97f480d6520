import { createApiKeySchema, createTenantSchema } from '@agentwallet/core'
import { defineRoute } from './defineRoute.js'

/** API keys of the caller's tenant, and tenants (root admin). The raw key is in the response once. */
export const apiKeyRoutes = [
  defineRoute({
    method: 'post',
    path: '/api-keys',
    summary: 'Issue an API key in the caller’s tenant (admin); the raw key is shown once',
    roles: 'admin',
    body: createApiKeySchema,
    status: 201,
    handler: async ({ session, body }) => {
      const { apiKey, key } = await session.createApiKey(body)
      return { status: 201, body: { success: true, apiKey, key } }
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api-keys',
    summary: 'API keys of the caller’s tenant, without secrets (admin)',
    roles: 'admin',
    handler: async ({ session }) => ({ body: { success: true, ...(await session.listApiKeys()) } }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api-keys/:id',
    summary: 'Revoke an API key of the caller’s tenant (admin)',
    roles: 'admin',
    handler: async ({ session, params }) => ({
      body: { success: true, apiKey: await session.revokeApiKey(params.id!) },
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/tenants',
    summary: 'Create a tenant and its first admin key (root admin only); the raw key is shown once',
    roles: 'root admin',
    body: createTenantSchema,
    status: 201,
    handler: async ({ session, body }) => {
      const { tenant, apiKey, key } = await session.createTenant(body)
      return { status: 201, body: { success: true, tenant, apiKey, key } }
    },
  }),
]

import { identityQuerySchema, registerIdentitySchema } from '@agentwallet/core'
import { defineRoute } from './defineRoute.js'

/** ERC-8004 identities: register, list, by wallet, by agentId (read from chain, with a proof of ownership). */
export const identityRoutes = [
  defineRoute({
    method: 'post',
    path: '/identity/create',
    summary:
      'Register an ERC-8004 identity for a wallet (mint, registration file as agentURI, agent wallet bound)',
    body: registerIdentitySchema,
    idempotent: true,
    status: 201,
    handler: async ({ session, body, idempotencyKey }) => ({
      status: 201,
      body: { success: true, identity: await session.registerIdentity(body, { idempotencyKey }) },
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/identity/list',
    summary: 'Identities registered through this service that the caller may see',
    handler: async ({ session }) => ({ body: { success: true, ...(await session.listIdentities()) } }),
  }),
  // Declared before /identity/:agentId so "wallet" is never read as an agent id.
  defineRoute({
    method: 'get',
    path: '/identity/wallet/:address',
    summary: 'Identities bound to a wallet',
    handler: async ({ session, params }) => ({
      body: {
        success: true,
        address: params.address,
        ...(await session.identitiesOfWallet(params.address!)),
      },
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/identity/:agentId',
    summary:
      'Identity read from chain (owner, agentURI, metadata, agent wallet) with capabilities and a verifiable proof of ownership',
    query: identityQuerySchema,
    handler: async ({ session, params, query }) => ({
      body: { success: true, identity: await session.getIdentity(params.agentId!, query) },
    }),
  }),
]

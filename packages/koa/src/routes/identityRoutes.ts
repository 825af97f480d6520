import { identityQuerySchema, registerIdentitySchema } from '@agentwallet/core'
import { defineRoute } from './defineRoute.js'

/** ERC-8004 identities: register, list, by wallet, by agentId (read from chain, with a proof of ownership). */
export const identityRoutes = [
  defineRoute({
    method: 'post',
    path: '/identity/create',
    summary:
      'Register an ERC-8004 identity for a wallet (mint, registration file as agentURI, agent wallet bound): 201 when done, 202 when a step waits for approval (the rest runs once approved)',
    body: registerIdentitySchema,
    idempotent: true,
    status: 201,
    handler: async ({ session, body, idempotencyKey }) => {
      const result = await session.registerIdentity(body, { idempotencyKey })
      if ('status' in result && result.status === 'pending_approval') {
        const { id, expiresAt, ruleId, reason } = result.approval
        return {
          status: 202,
          body: {
            success: true,
            status: 'pending_approval',
            approval: { id, expiresAt, ruleId: ruleId ?? null, reason },
            identity: result.identity,
          },
        }
      }
      return { status: 201, body: { success: true, status: 'registered', identity: result } }
    },
  }),
  defineRoute({
    method: 'get',
    path: '/identity/list',
    summary: 'Identities registered through this service that the caller may see',
    handler: async ({ session }) => ({ body: { success: true, ...(await session.listIdentities()) } }),
  }),
  // Declared before /identity/:agentId so "registration" and "wallet" are never read as agent ids.
  defineRoute({
    method: 'get',
    path: '/identity/registration/:id',
    summary: 'One registration (idn_…), in progress or ended: status, step, the approval it waits for',
    handler: async ({ session, params }) => ({
      body: { success: true, registration: await session.getIdentityRegistration(params.id!) },
    }),
  }),
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

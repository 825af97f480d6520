import { registerEnsSchema, resolveEnsOptionsSchema } from '@agentwallet/core'
import { z } from 'zod'
import { defineRoute } from './defineRoute.js'

/** Query strings carry numbers as text; core validates the ranges. */
const checkQuerySchema = z.strictObject({
  chain: z.string().min(1).max(64).optional(),
  years: z.coerce.number().int().optional(),
  durationSeconds: z.coerce.number().int().optional(),
})

/** ENS names. `/ens/list`, `/ens/registration/:id` and `/ens/reverse/:address` are declared before `/ens/:name`. */
export const ensRoutes = [
  defineRoute({
    method: 'get',
    path: '/ens/list',
    summary: 'The caller’s names: registrations of its wallets, newest first, with their status',
    handler: async ({ session }) => ({ body: { success: true, ...(await session.listEnsNames()) } }),
  }),
  defineRoute({
    method: 'get',
    path: '/ens/check/:name',
    summary: 'Normalized name (ENSIP-15), availability and rent price of a .eth name, from the controller',
    query: checkQuerySchema,
    handler: async ({ session, params, query }) => ({
      body: { success: true, ...(await session.checkEnsName(params.name!, query)) },
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/ens/register',
    summary:
      'Register a .eth name by commit/reveal: 202 with the tracked operation; `ens.registered` when done',
    body: registerEnsSchema,
    idempotent: true,
    status: 202,
    handler: async ({ session, body, idempotencyKey }) => {
      const registration = await session.registerEnsName(body, { idempotencyKey })
      return { status: 202, body: { success: true, status: registration.status, registration } }
    },
  }),
  defineRoute({
    method: 'get',
    path: '/ens/registration/:id',
    summary: 'One registration operation (poll it after a 202 from /ens/register)',
    handler: async ({ session, params }) => ({
      body: { success: true, registration: await session.getEnsRegistration(params.id!) },
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/ens/reverse/:address',
    summary: 'The primary name of an address (reverse record, checked forward); 404 when it has none',
    query: resolveEnsOptionsSchema,
    handler: async ({ session, params, query }) => ({
      body: { success: true, ...(await session.reverseEnsName(params.address!, query)) },
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/ens/:name',
    summary: 'The address a name resolves to (registry → resolver); 404 when it resolves to nothing',
    query: resolveEnsOptionsSchema,
    handler: async ({ session, params, query }) => ({
      body: { success: true, ...(await session.resolveEnsName(params.name!, query)) },
    }),
  }),
]

import { Readable } from 'node:stream'
import { type AgentWallet, exportAudit } from '@agentwallet/core'
import { defineRoute, type RouteSpec } from './defineRoute.js'

/**
 * `GET /audit/export`: the tenant's whole audit trail as JSON lines, streamed a page at a time (admin
 * keys only), for `agentwallet audit verify` to check offline.
 * @example routes.push(...auditRoutes({ agentWallet }))
 */
export function auditRoutes(options: { agentWallet: AgentWallet }): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/audit/export',
      summary:
        'The tenant’s audit trail as JSON lines (application/x-ndjson), streamed, each entry with its chain values: verify it offline with `agentwallet audit verify` (admin keys only)',
      roles: 'admin',
      produces: 'application/x-ndjson',
      handler: async ({ principal }) => ({
        body: Readable.from(exportAudit(options.agentWallet.context, principal)),
      }),
    }),
  ]
}

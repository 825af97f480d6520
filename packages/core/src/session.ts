import { type OperationMethods, operationMethods } from './api/sessionMethods.js'
import type { AgentWalletContext } from './context.js'
import type { Principal } from './principals/types.js'

/**
 * Every declared operation bound to a context and a principal (viem's decorator pattern): what an
 * in-process agent calls, and what the HTTP edge and the agent tools call through. Each method
 * takes the operation's input object and `{ idempotencyKey }`, and answers its declared output.
 */
export type AgentWalletSession = OperationMethods & { readonly principal: Principal }

/**
 * Binds every operation of the table to `ctx` and `principal`.
 * @example const agent = createSession(ctx, { tenantId: 't1', id: 'key_1', role: 'agent' })
 */
export function createSession(ctx: AgentWalletContext, principal: Principal): AgentWalletSession {
  return { principal, ...operationMethods(ctx, principal) }
}

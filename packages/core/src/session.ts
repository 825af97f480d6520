import { type OperationMethods, operationMethods } from './api/sessionMethods.js'
import type { AgentWalletContext } from './context.js'
import { sessionFetch } from './payments/sessionFetch.js'
import type { Principal } from './principals/types.js'

/**
 * Every declared operation bound to a context and a principal (viem's decorator pattern): what an
 * in-process agent calls, and what the HTTP edge and the agent tools call through. Each method
 * takes the operation's input object and `{ idempotencyKey }`, and answers its declared output.
 */
export type AgentWalletSession = OperationMethods & {
  readonly principal: Principal
  /** `fetch` that pays x402 invoices from a wallet (`payAndFetch`): `agent.fetch(url, init, { wallet, maxAmount })`. */
  fetch: ReturnType<typeof sessionFetch>
}

/**
 * Binds every operation of the table to `ctx` and `principal`.
 * @example const agent = createSession(ctx, { tenantId: 't1', id: 'key_1', role: 'agent' })
 */
export function createSession(ctx: AgentWalletContext, principal: Principal): AgentWalletSession {
  const methods = operationMethods(ctx, principal)
  return { principal, ...methods, fetch: sessionFetch(methods) }
}

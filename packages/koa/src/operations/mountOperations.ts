import { callOperation, type OperationDeclaration } from '@agentwallet/core'
import type Router from '@koa/router'
import type { AppState } from '../http/types.js'
import { type AuthOptions, authenticateRequest } from '../routes/authenticate.js'
import { requestInput } from './requestInput.js'

/**
 * Registers every operation on the router, each the same four steps: authenticate (and rate
 * limit) → read the input from path, query or body → `callOperation`, the kernel every session
 * method runs (it authorizes, validates and runs the action) → answer `{ success: true, …output }`
 * with the declared status, or the declared paused status (202) when the answer waits for a human.
 * @example mountOperations(router, operationList, { agentWallet })
 */
export function mountOperations(
  router: Router<AppState>,
  operations: readonly OperationDeclaration[],
  options: AuthOptions,
): void {
  for (const operation of operations) {
    const read = requestInput(operation)
    const { method, path, aliases = [] } = operation.http
    for (const route of [path, ...aliases]) {
      router[method](route, async (ctx) => {
        ctx.state.route = route
        const principal = await authenticateRequest(ctx, options)
        ctx.state.principal = principal
        const input = read({ params: ctx.params, query: ctx.query, body: ctx.state.body })
        const idempotencyKey = operation.idempotent ? ctx.get('idempotency-key') || undefined : undefined
        const output = (await callOperation(options.agentWallet.context, principal, operation, input, {
          idempotencyKey,
        })) as Record<string, unknown>
        const { status, whenPaused } = operation.http
        ctx.status = whenPaused && output.status === 'pending_approval' ? whenPaused : status
        ctx.body = { success: true, ...output }
      })
    }
  }
}

import type { AgentWalletSession } from '@agentwallet/core'
import { ForbiddenError } from '@agentwallet/core/contract'
import type { ApprovalInstructionsOptions } from '../tools/approvalInstructions.js'
import { assertToolOperation } from '../tools/toolOperations.js'
import type { AgentWalletBackend, OperationCall } from './agentWalletBackend.js'

export type InProcessBackendOptions = {
  /** The session of an agent principal: `aw.as(await aw.authenticate(agentKey))`. */
  session: AgentWalletSession
  /** Where humans approve paused actions (the server URL over the same storage, a dashboard). */
  approvals?: ApprovalInstructionsOptions | undefined
}

/**
 * The tools' backend over `@agentwallet/core` in this process: each tool calls the session method
 * of its operation, as one agent principal.
 * @example const backend = inProcessBackend({ session: aw.as(await aw.authenticate(process.env.AGENTWALLET_API_KEY)) })
 */
export function inProcessBackend(options: InProcessBackendOptions): AgentWalletBackend {
  const { session } = options
  // An approver or admin session would let tools see (and spend from) every wallet of the tenant.
  if (session.principal.role !== 'agent') {
    throw new ForbiddenError('The agent tools act as an agent: use an API key with role "agent"', {
      details: { role: session.principal.role },
    })
  }
  const methods = session as unknown as Record<string, OperationCall>
  return {
    kind: 'in-process',
    approvals: options.approvals ?? {},
    ready: async () => {},
    async call(operation, input, callOptions) {
      assertToolOperation(operation)
      return methods[operation]!(input, callOptions)
    },
  }
}

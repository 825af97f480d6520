import { createClient } from '@agentwallet/client'
import { ForbiddenError } from '@agentwallet/core/contract'
import type { ApprovalInstructionsOptions } from '../tools/approvalInstructions.js'
import { assertToolOperation } from '../tools/toolOperations.js'
import type { AgentWalletBackend, OperationCall } from './agentWalletBackend.js'
import { verifyAgentKey } from './verifyAgentKey.js'

export type RemoteBackendOptions = {
  /** The AgentWallet server, e.g. `http://127.0.0.1:8080`. */
  url: string
  /** An API key with role `agent`: any other role is refused. */
  apiKey: string
  /** Where humans approve: defaults to `url`; a dashboard page per approval (`{id}`) when you have one. */
  approvals?: ApprovalInstructionsOptions | undefined
  fetch?: typeof fetch | undefined
  timeoutMs?: number | undefined
}

/**
 * The tools' backend over HTTP: each tool calls the client method of its operation, as the key's
 * principal. Before the first call it makes sure the key is an agent key (an approver or admin key
 * would reach every wallet of the tenant) and refuses with `forbidden` otherwise.
 * @example const backend = remoteBackend({ url: process.env.AGENTWALLET_URL, apiKey: process.env.AGENTWALLET_API_KEY })
 */
export function remoteBackend(options: RemoteBackendOptions): AgentWalletBackend {
  const client = createClient({
    baseUrl: options.url,
    apiKey: options.apiKey,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
  })
  const methods = client as unknown as Record<string, OperationCall>
  let verified: Promise<void> | undefined
  const ready = (): Promise<void> => {
    verified ??= verifyAgentKey(client).catch((error: unknown) => {
      // Not known yet (say the server was down): the next call asks again. A verdict is kept.
      if (!(error instanceof ForbiddenError)) verified = undefined
      throw error
    })
    return verified
  }
  return {
    kind: 'remote',
    approvals: { serverUrl: options.url, ...options.approvals },
    ready,
    async call(operation, input, callOptions) {
      assertToolOperation(operation)
      await ready()
      return methods[operation]!(input, callOptions)
    },
  }
}

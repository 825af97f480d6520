import type { AgentWalletBackend } from '../backend/agentWalletBackend.js'
import { approvalTools } from './approvalTools.js'
import type { AgentWalletTool } from './defineTool.js'
import { defiTools } from './defiTools.js'
import { ensTools } from './ensTools.js'
import { identityTools } from './identityTools.js'
import { multisigTools } from './multisigTools.js'
import { transactionTools } from './transactionTools.js'
import { walletTools } from './walletTools.js'

/**
 * Every agent tool over `backend`, framework-neutral: `{ name, description, inputSchema (zod), handler }`.
 * The MCP server serves exactly these; wire them into any tool-calling loop the same way.
 * @example
 * const tools = agentWalletTools(remoteBackend({ url, apiKey }))
 * const result = await tools.find((tool) => tool.name === 'get_balance')!.handler({ address })
 */
export function agentWalletTools(backend: AgentWalletBackend): AgentWalletTool[] {
  return [
    ...walletTools(backend),
    ...transactionTools(backend),
    ...approvalTools(backend),
    ...identityTools(backend),
    ...ensTools(backend),
    ...defiTools(backend),
    ...multisigTools(backend),
  ]
}

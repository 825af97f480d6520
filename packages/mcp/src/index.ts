export type {
  AgentWalletBackend,
  ApprovalStatus,
  PendingApproval,
  SendOutcome,
} from './backend/agentWalletBackend.js'
export {
  type ApprovalInstructions,
  type ApprovalInstructionsOptions,
  approvalInstructions,
} from './backend/approvalInstructions.js'
export { type InProcessBackendOptions, inProcessBackend } from './backend/inProcessBackend.js'
export { type RemoteBackendOptions, remoteBackend } from './backend/remoteBackend.js'
export {
  type CreateMcpServerOptions,
  createMcpServer,
  mcpServerName,
  mcpServerVersion,
} from './server/createMcpServer.js'
export { type McpEnv, readMcpEnv } from './server/readMcpEnv.js'
export { type RunMcpServerOptions, type RunningMcpServer, runMcpServer } from './server/runMcpServer.js'
export { serveStdio } from './server/serveStdio.js'
export {
  type RunningMcpHttp,
  type ServeStreamableHttpOptions,
  serveStreamableHttp,
} from './server/serveStreamableHttp.js'
export { toCallToolResult, toErrorResult } from './server/toCallToolResult.js'
export { type JsonInputSchema, toJsonInputSchema } from './server/toJsonInputSchema.js'
export { agentWalletTools } from './tools/agentWalletTools.js'
export { type AgentWalletTool, defineTool } from './tools/defineTool.js'
export { type ToolError, toToolError } from './tools/toToolError.js'

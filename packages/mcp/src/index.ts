export type { AgentWalletBackend, OperationCall } from './backend/agentWalletBackend.js'
export { type InProcessBackendOptions, inProcessBackend } from './backend/inProcessBackend.js'
export { type RemoteBackendOptions, remoteBackend } from './backend/remoteBackend.js'
export { verifyAgentKey } from './backend/verifyAgentKey.js'
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
export { type AgentTool, agentTools } from './tools/agentTools.js'
export {
  type ApprovalInstructions,
  type ApprovalInstructionsOptions,
  approvalInstructions,
  approvalInstructionsSchema,
} from './tools/approvalInstructions.js'
export { type AgentToolResult, runAgentTool } from './tools/runAgentTool.js'
export { type JsonObjectSchema, toJsonObjectSchema } from './tools/toJsonObjectSchema.js'
export { type ToolAnnotations, toolAnnotations } from './tools/toolAnnotations.js'
export { toolInputSchema } from './tools/toolInputSchema.js'
export { assertToolOperation, toolOperations } from './tools/toolOperations.js'
export { toolOutputSchema } from './tools/toolOutputSchema.js'
export { type ToolError, toToolError } from './tools/toToolError.js'
export { withApprovalInstructions } from './tools/withApprovalInstructions.js'

// The low-level Server (not McpServer): McpServer validates input itself and answers a bad input
// with a protocol error without our `validation_failed` code; here every failure is a tool error
// with a code, and tools/list carries the JSON Schemas of the very zod schemas the handler parses.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import type { AgentTool } from '../tools/agentTools.js'
import { toToolError } from '../tools/toToolError.js'
import { toCallToolResult, toErrorResult } from './toCallToolResult.js'

export const mcpServerName = 'agentwallet'
export const mcpServerVersion = '0.1.0'

export type CreateMcpServerOptions = {
  /** Receives one line per tool call (tool, outcome, code); default: none. Never write to stdout under stdio. */
  log?: ((line: string) => void) | undefined
}

/**
 * An MCP server serving `tools` (usually `agentTools(backend)`); connect it to a transport.
 * @example const server = createMcpServer(agentTools(backend)); await server.connect(new StdioServerTransport())
 */
export function createMcpServer(tools: readonly AgentTool[], options: CreateMcpServerOptions = {}): Server {
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  const listed: Tool[] = tools.map((tool) => ({
    name: tool.name,
    title: tool.annotations.title,
    description: tool.description,
    inputSchema: tool.inputJsonSchema,
    outputSchema: tool.outputJsonSchema,
    annotations: tool.annotations,
  }))
  const server = new Server(
    { name: mcpServerName, version: mcpServerVersion },
    {
      capabilities: { tools: {} },
      instructions:
        'AgentWallet: EVM wallets for this agent. Amounts are decimal strings ("0.1"). Every value-moving action passes a policy; one that waits for a human answers status "pending_approval" with howToApprove: relay it to your user and do not retry (the action goes ahead once approved); check later with get_approval.',
    },
  )
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name)
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name}"`)
    const started = Date.now()
    try {
      const answer = await tool.handler(request.params.arguments)
      options.log?.(`tool ${tool.name} ok ${Date.now() - started}ms`)
      return toCallToolResult(answer)
    } catch (error) {
      const toolError = toToolError(error)
      options.log?.(`tool ${tool.name} error ${toolError.code} ${Date.now() - started}ms`)
      return toErrorResult(toolError)
    }
  })
  return server
}

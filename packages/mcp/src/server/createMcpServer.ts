// The low-level Server (not McpServer): McpServer validates input itself and answers a bad input
// with a protocol error without our `validation_failed` code; here every failure is a tool error
// with a code, and tools/list carries the JSON Schema of the very zod schema the handler parses.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js'
import type { AgentWalletTool } from '../tools/defineTool.js'
import { toToolError } from '../tools/toToolError.js'
import { toCallToolResult, toErrorResult } from './toCallToolResult.js'
import { toJsonInputSchema } from './toJsonInputSchema.js'

export const mcpServerName = 'agentwallet'
export const mcpServerVersion = '0.1.0'

export type CreateMcpServerOptions = {
  /** Receives one line per tool call (tool, outcome, code); default: none. Never write to stdout under stdio. */
  log?: ((line: string) => void) | undefined
}

/**
 * An MCP server serving `tools` (usually `agentWalletTools(backend)`); connect it to a transport.
 * @example const server = createMcpServer(agentWalletTools(backend)); await server.connect(new StdioServerTransport())
 */
export function createMcpServer(
  tools: readonly AgentWalletTool[],
  options: CreateMcpServerOptions = {},
): Server {
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  const listed = tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toJsonInputSchema(tool.inputSchema),
    annotations: {
      title: tool.title,
      readOnlyHint: tool.readOnly,
      // A send moves value but destroys nothing a retry with the same idempotency key would repeat.
      destructiveHint: false,
      openWorldHint: true,
    },
  }))
  const server = new Server(
    { name: mcpServerName, version: mcpServerVersion },
    {
      capabilities: { tools: {} },
      instructions:
        'AgentWallet: EVM wallets for this agent. Amounts are decimal strings ("0.1"). Every send passes a policy; a paused send needs a human to approve it — relay the approval instructions, then poll get_approval.',
    },
  )
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name)
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name}"`)
    const started = Date.now()
    try {
      const result = await tool.handler(request.params.arguments)
      options.log?.(`tool ${tool.name} ok ${Date.now() - started}ms`)
      return toCallToolResult(result)
    } catch (error) {
      const toolError = toToolError(error)
      options.log?.(`tool ${tool.name} error ${toolError.code} ${Date.now() - started}ms`)
      return toErrorResult(toolError)
    }
  })
  return server
}

import type { AgentTool } from './agentTools.js'
import { type ToolError, toToolError } from './toToolError.js'

/** What the model reads back from a tool call: the answer, or the error with a code it can act on. */
export type AgentToolResult = Record<string, unknown> | { error: ToolError }

/**
 * Runs `tool` for a model: a failure becomes `{ error: { code, message, details } }` data instead
 * of an exception, as every framework adapter hands results back.
 * @example const result = await runAgentTool(send, { wallet, to, value: '0.1' })
 */
export async function runAgentTool(tool: AgentTool, input: unknown): Promise<AgentToolResult> {
  try {
    return await tool.handler(input)
  } catch (error) {
    return { error: toToolError(error) }
  }
}

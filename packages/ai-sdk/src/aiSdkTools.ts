import { type AgentTool, runAgentTool } from '@agentwallet/mcp'
import { jsonSchema, type Tool, tool } from 'ai'

/**
 * The agent tools as an AI SDK tool set (`generateText({ tools })`), keyed by tool name. Each takes
 * the JSON Schema of its operation's input and answers the operation's output, or
 * `{ error: { code, message, details } }` for the model to act on (a paused action answers
 * `status: "pending_approval"` with `howToApprove`).
 * @example
 * const tools = aiSdkTools(agentTools(inProcessBackend({ session: aw.as(agent) })))
 * await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: 'Pay 0.1 ETH to 0x…' })
 */
export function aiSdkTools(tools: readonly AgentTool[]): Record<string, Tool> {
  return Object.fromEntries(
    tools.map((agentTool) => [
      agentTool.name,
      tool({
        title: agentTool.annotations.title,
        description: agentTool.description,
        // No `validate` here: the handler validates with the operation's own schema and answers
        // `validation_failed` as data the model can correct, instead of an SDK error.
        inputSchema: jsonSchema<Record<string, unknown>>(
          agentTool.inputJsonSchema as Parameters<typeof jsonSchema>[0],
        ),
        execute: (input) => runAgentTool(agentTool, input),
      }),
    ]),
  )
}

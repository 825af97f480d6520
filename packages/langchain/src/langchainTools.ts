import { type AgentTool, runAgentTool } from '@agentwallet/mcp'
import { type DynamicStructuredTool, tool } from '@langchain/core/tools'

/**
 * The agent tools as LangChain tools (`model.bindTools(tools)`, `tool.invoke(toolCall)`). Each takes
 * the JSON Schema of its operation's input; its ToolMessage content is the answer as JSON (or
 * `{ error: { code, message, details } }` for the model to act on), and its artifact the same object.
 * @example
 * const tools = langchainTools(agentTools(inProcessBackend({ session: aw.as(agent) })))
 * const ai = await model.bindTools(tools).invoke(messages)
 * for (const call of ai.tool_calls ?? []) messages.push(await byName[call.name].invoke(call))
 */
export function langchainTools(tools: readonly AgentTool[]): DynamicStructuredTool[] {
  return tools.map((agentTool) =>
    tool(
      async (input: unknown) => {
        const result = await runAgentTool(agentTool, input)
        return [JSON.stringify(result), result]
      },
      {
        name: agentTool.name,
        description: agentTool.description,
        schema: agentTool.inputJsonSchema,
        responseFormat: 'content_and_artifact',
      },
    ),
  )
}

import { type AgentTool, runAgentTool } from '@agentwallet/mcp'
import { type FunctionTool, tool } from '@openai/agents'

type NonStrictParameters = Extract<Parameters<typeof tool>[0], { strict: false }>['parameters']

/**
 * The agent tools as OpenAI Agents SDK function tools (`new Agent({ tools })`). Each takes the JSON
 * Schema of its operation's input (not strict: optional fields stay optional) and answers the
 * operation's output as JSON, or `{ error: { code, message, details } }` for the model to act on.
 * @example
 * const agent = new Agent({ name: 'payer', model, tools: openAiAgentsTools(agentTools(remoteBackend({ url, apiKey }))) })
 * const result = await run(agent, 'Pay 0.1 ETH to 0x…')
 */
export function openAiAgentsTools(tools: readonly AgentTool[]): FunctionTool[] {
  return tools.map(
    (agentTool) =>
      tool({
        name: agentTool.name,
        description: agentTool.description,
        // Strict mode would make every field required; the operation's schema decides instead.
        strict: false,
        parameters: agentTool.inputJsonSchema as unknown as NonStrictParameters,
        execute: async (input) => JSON.stringify(await runAgentTool(agentTool, input)),
      }) as FunctionTool,
  )
}

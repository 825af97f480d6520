import { agentTools, inProcessBackend } from '@agentwallet/mcp'
import {
  Agent,
  type Model,
  type ModelRequest,
  type ModelResponse,
  run,
  setTracingDisabled,
  Usage,
} from '@openai/agents'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  agentScenario,
  expectScenarioEffects,
  type ScriptedTurn,
} from '../../mcp/test/helpers/agentScenario.js'
import { type Fixture, startFixture } from '../../mcp/test/helpers/mcpFixture.js'
import { openAiAgentsTools } from '../src/index.js'

let fixture: Fixture

beforeAll(async () => {
  // Traces would be exported to OpenAI: nothing leaves this machine in tests.
  setTracingDisabled(true)
  fixture = await startFixture()
})
afterAll(async () => {
  await fixture?.close()
})

/** An Agents SDK `Model` that plays a script over the function-call results in its input. */
class ScriptedModel implements Model {
  offered: string[] = []

  constructor(private readonly next: (results: unknown[]) => ScriptedTurn) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.offered = request.tools.map((tool) => tool.name)
    const items = typeof request.input === 'string' ? [] : request.input
    const results = items.flatMap((item) =>
      item.type === 'function_call_result' ? [JSON.parse(textOf(item.output))] : [],
    )
    const turn = this.next(results)
    const output: ModelResponse['output'] =
      'text' in turn
        ? [
            {
              type: 'message',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: turn.text }],
            },
          ]
        : turn.calls.map((call, index) => ({
            type: 'function_call' as const,
            callId: `call-${results.length}-${index}`,
            name: call.name,
            arguments: JSON.stringify(call.input),
            status: 'completed' as const,
          }))
    return { usage: new Usage(), output }
  }

  // biome-ignore lint/correctness/useYield: the runs here do not stream
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed in these tests')
  }
}

/** The text of a function call's result, as the runner hands it back to the model. */
function textOf(output: unknown): string {
  if (typeof output === 'string') return output
  const { type, text } = output as { type?: string; text?: unknown }
  if (type === 'text' && typeof text === 'string') return text
  throw new Error('a tool answered something other than text')
}

describe('AgentWallet tools in the OpenAI Agents SDK', () => {
  it('a scripted model creates a wallet, pays and waits, and is told a larger payment waits for a human', async () => {
    const scenario = agentScenario(fixture)
    const model = new ScriptedModel(scenario.next)
    const agent = new Agent({
      name: 'payer',
      instructions: 'Pay as asked.',
      model,
      tools: openAiAgentsTools(agentTools(inProcessBackend({ session: fixture.aw.as(fixture.agent) }))),
    })

    const result = await run(agent, 'Make yourself a wallet, pay 0.1 ETH and wait, then pay 0.8 ETH.', {
      maxTurns: 10,
    })

    const outputs = result.newItems.flatMap((item) =>
      item.type === 'tool_call_output_item' ? [JSON.parse(String(item.output))] : [],
    )
    await expectScenarioEffects(fixture, scenario, outputs, model.offered)
    expect(result.finalOutput).toContain('pending_approval')
  })
})

import { agentTools, inProcessBackend } from '@agentwallet/mcp'
import { generateText, stepCountIs } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentScenario, expectScenarioEffects } from '../../mcp/test/helpers/agentScenario.js'
import { type Fixture, startFixture } from '../../mcp/test/helpers/mcpFixture.js'
import { aiSdkTools } from '../src/index.js'

let fixture: Fixture

beforeAll(async () => {
  fixture = await startFixture()
})
afterAll(async () => {
  await fixture?.close()
})

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
}

describe('AgentWallet tools in the Vercel AI SDK', () => {
  it('a scripted model creates a wallet, pays and waits, and is told a larger payment waits for a human', async () => {
    const scenario = agentScenario(fixture)
    const offered: string[] = []
    const model = new MockLanguageModelV3({
      async doGenerate({ prompt, tools }) {
        offered.splice(0, offered.length, ...(tools ?? []).map((tool) => tool.name))
        const results = prompt.flatMap((message) =>
          message.role === 'tool'
            ? message.content.flatMap((part) =>
                part.type === 'tool-result' && part.output.type === 'json' ? [part.output.value] : [],
              )
            : [],
        )
        const turn = scenario.next(results)
        if ('text' in turn) {
          return {
            content: [{ type: 'text', text: turn.text }],
            finishReason: { unified: 'stop', raw: 'stop' },
            usage,
            warnings: [],
          }
        }
        return {
          content: turn.calls.map((call, index) => ({
            type: 'tool-call' as const,
            toolCallId: `call-${results.length}-${index}`,
            toolName: call.name,
            input: JSON.stringify(call.input),
          })),
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        }
      },
    })

    const tools = aiSdkTools(agentTools(inProcessBackend({ session: fixture.aw.as(fixture.agent) })))
    const result = await generateText({
      model,
      tools,
      stopWhen: stepCountIs(10),
      prompt: 'Make yourself a wallet, pay 0.1 ETH and wait for it, then pay 0.8 ETH.',
    })

    const outputs = result.steps.flatMap((step) => step.toolResults.map((toolResult) => toolResult.output))
    await expectScenarioEffects(fixture, scenario, outputs, offered)
    expect(result.text).toContain('pending_approval')
  })

  it('hands a refused call back to the model as data with a code', async () => {
    const tools = aiSdkTools(agentTools(inProcessBackend({ session: fixture.aw.as(fixture.agent) })))
    const send = tools.send!
    const blocked = await send.execute!(
      { wallet: fixture.wallet, to: '0x000000000000000000000000000000000000dEaD', value: '5' },
      { toolCallId: 'c1', messages: [] },
    )
    expect(blocked).toMatchObject({ error: { code: 'policy_blocked' } })
    const typo = await send.execute!(
      { wallet: fixture.wallet, too: fixture.wallet },
      { toolCallId: 'c2', messages: [] },
    )
    expect(typo).toMatchObject({ error: { code: 'validation_failed' } })
  })
})

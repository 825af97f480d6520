import { agentTools, inProcessBackend } from '@agentwallet/mcp'
import { BaseChatModel, type BindToolsInput } from '@langchain/core/language_models/chat_models'
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages'
import type { ChatResult } from '@langchain/core/outputs'
import { convertToOpenAITool } from '@langchain/core/utils/function_calling'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  agentScenario,
  expectScenarioEffects,
  type ScriptedTurn,
} from '../../mcp/test/helpers/agentScenario.js'
import { type Fixture, startFixture } from '../../mcp/test/helpers/mcpFixture.js'
import { langchainTools } from '../src/index.js'

let fixture: Fixture

beforeAll(async () => {
  fixture = await startFixture()
})
afterAll(async () => {
  await fixture?.close()
})

/**
 * A LangChain chat model that plays a script: it reads the tool results in the transcript (the
 * ToolMessages' JSON) and answers the next tool calls, as a provider's model would.
 */
class ScriptedChatModel extends BaseChatModel {
  /** The tools as the provider would receive them (OpenAI function format). */
  offered: string[] = []

  constructor(private readonly next: (results: unknown[]) => ScriptedTurn) {
    super({})
  }

  _llmType(): string {
    return 'scripted'
  }

  override bindTools(tools: BindToolsInput[]) {
    this.offered = tools.map((tool) => convertToOpenAITool(tool).function.name)
    return this.withConfig({})
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const results = messages
      .filter(ToolMessage.isInstance)
      .map((message) => JSON.parse(String(message.content)))
    const turn = this.next(results)
    const message =
      'text' in turn
        ? new AIMessage(turn.text)
        : new AIMessage({
            content: '',
            tool_calls: turn.calls.map((call, index) => ({
              id: `call-${results.length}-${index}`,
              name: call.name,
              args: call.input,
              type: 'tool_call' as const,
            })),
          })
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] }
  }
}

describe('AgentWallet tools in LangChain', () => {
  it('a scripted model creates a wallet, pays and waits, and is told a larger payment waits for a human', async () => {
    const scenario = agentScenario(fixture)
    const model = new ScriptedChatModel(scenario.next)
    const tools = langchainTools(agentTools(inProcessBackend({ session: fixture.aw.as(fixture.agent) })))
    const byName = new Map(tools.map((tool) => [tool.name, tool]))

    // LangChain's tool-calling loop: the model calls tools, each ToolMessage goes back to it.
    const bound = model.bindTools(tools)
    const messages: BaseMessage[] = [
      new HumanMessage('Make yourself a wallet, pay 0.1 ETH and wait, then pay 0.8 ETH.'),
    ]
    const artifacts: unknown[] = []
    for (let step = 0; step < 10; step++) {
      const answer = (await bound.invoke(messages)) as AIMessage
      messages.push(answer)
      if (!answer.tool_calls?.length) break
      for (const call of answer.tool_calls) {
        const result = (await byName.get(call.name)!.invoke({ ...call, type: 'tool_call' })) as ToolMessage
        artifacts.push(result.artifact)
        messages.push(result)
      }
    }

    await expectScenarioEffects(fixture, scenario, artifacts, model.offered)
    expect(String(messages.at(-1)!.content)).toContain('pending_approval')
  })

  it('hands a refused call back to the model as a ToolMessage with a code', async () => {
    const tools = langchainTools(agentTools(inProcessBackend({ session: fixture.aw.as(fixture.agent) })))
    const send = tools.find((tool) => tool.name === 'send')!
    const blocked = (await send.invoke({
      id: 'c1',
      name: 'send',
      args: { wallet: fixture.wallet, to: '0x000000000000000000000000000000000000dEaD', value: '5' },
      type: 'tool_call',
    })) as ToolMessage
    expect(JSON.parse(String(blocked.content))).toMatchObject({ error: { code: 'policy_blocked' } })
  })
})

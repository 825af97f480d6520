/**
 * Wiring the AgentWallet tools into any tool-calling agent loop, framework-neutral: the tools become
 * the `{ name, description, parameters }` specs that LLM APIs take, and each call the model makes is
 * dispatched to a handler. A scripted stand-in plays the model here, so nothing calls an LLM.
 * Run: node --import tsx examples/agentToolLoop.ts
 */
import { createAgentWallet } from '@agentwallet/core'
import { createDevnet } from '@agentwallet/devnet'
import { type AgentTool, agentTools, inProcessBackend, runAgentTool } from '@agentwallet/mcp'
import { parseEther } from 'viem'

export type ToolCall = { id: string; name: string; arguments: unknown }
export type Message =
  | { role: 'user' | 'assistant'; content: string }
  | { role: 'tool'; toolCallId: string; content: string }
export type ToolSpec = { name: string; description: string; parameters: object }
/** Your model: given the transcript and the tool specs, call tools or answer. */
export type Model = (
  transcript: Message[],
  tools: ToolSpec[],
) => Promise<{ toolCalls: ToolCall[] } | { answer: string }>

/** The loop every framework runs: ask the model, run the tools it calls, feed the results back. */
export async function runAgentLoop(model: Model, tools: AgentTool[], prompt: string, maxSteps = 8) {
  const specs = tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: tool.inputJsonSchema,
  }))
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  const transcript: Message[] = [{ role: 'user', content: prompt }]
  for (let step = 0; step < maxSteps; step++) {
    const turn = await model(transcript, specs)
    if ('answer' in turn) {
      transcript.push({ role: 'assistant', content: turn.answer })
      return transcript
    }
    for (const call of turn.toolCalls) {
      const tool = byName.get(call.name)
      // A failed call goes back to the model as data with a code it can act on, not as an exception.
      const result = tool
        ? await runAgentTool(tool, call.arguments)
        : { error: { code: 'not_found', message: `No tool ${call.name}` } }
      transcript.push({ role: 'tool', toolCallId: call.id, content: JSON.stringify(result) })
    }
  }
  throw new Error(`The model did not answer within ${maxSteps} steps`)
}

/** A scripted model: look up the wallet, pay 0.1 ETH, try 2 ETH, then report what happened. */
function scriptedModel(recipient: string): Model {
  let wallet = ''
  return async (transcript) => {
    const last = transcript.at(-1)!
    const seen = transcript.filter((message) => message.role === 'tool').length
    if (seen === 0) return { toolCalls: [{ id: 'c1', name: 'list_wallets', arguments: {} }] }
    if (seen === 1) {
      wallet = JSON.parse(last.content).wallets[0].address
      return {
        toolCalls: [{ id: 'c2', name: 'send', arguments: { wallet, to: recipient, value: '0.1' } }],
      }
    }
    if (seen === 2)
      return {
        toolCalls: [{ id: 'c3', name: 'send', arguments: { wallet, to: recipient, value: '2' } }],
      }
    const { error } = JSON.parse(last.content)
    return { answer: `Paid 0.1 ETH from ${wallet}; the 2 ETH payment was refused (${error.code}).` }
  }
}

export async function runAgentToolLoopExample() {
  const devnet = await createDevnet()
  const aw = await createAgentWallet({
    chains: {
      devnet: { provider: devnet.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
    },
  })
  try {
    // The operator: an agent key, its wallet, money and a policy. The agent only gets the tools.
    const agent = aw.as(
      await aw.authenticate((await aw.createApiKey({ name: 'loop-agent', role: 'agent' })).key),
    )
    const { wallet } = await agent.createWallet({ agentName: 'loop-agent' })
    await devnet.faucet(wallet.address, parseEther('5'))
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'max_per_tx', asset: 'native', max: '1' }],
    })

    const tools = agentTools(inProcessBackend({ session: agent }))
    return await runAgentLoop(
      scriptedModel(devnet.accounts[1]!.address),
      tools,
      'Pay 0.1 ETH, then try 2 ETH.',
    )
  } finally {
    await aw.close()
    await devnet.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const message of await runAgentToolLoopExample()) console.log(message)
}

import { describe, expect, it } from 'vitest'
import { runAgentToolLoopExample } from '../../../examples/agentToolLoop.js'

describe('examples/agentToolLoop', () => {
  it('runs the framework-neutral loop: a paid send, a blocked one, and an answer naming the code', async () => {
    const transcript = await runAgentToolLoopExample()
    const results = transcript
      .filter((message) => message.role === 'tool')
      .map((message) => JSON.parse(message.content))
    expect(results[0]).toMatchObject({ count: 1 })
    expect(results[1]).toMatchObject({ status: 'submitted', transaction: { amount: '0.1' } })
    expect(results[2]).toMatchObject({
      error: { code: 'policy_blocked', details: { ruleType: 'max_per_tx' } },
    })
    expect(transcript.at(-1)).toMatchObject({
      role: 'assistant',
      content: expect.stringContaining('policy_blocked'),
    })
  })
})

import { parseEther } from 'viem'
import { expect } from 'vitest'
import { type Fixture, forbiddenToolName, freshAddress } from './mcpFixture.js'

/** A tool call a scripted model makes. */
export type ScriptedCall = { name: string; input: Record<string, unknown> }
/** A scripted model's turn: tool calls, or its final answer. */
export type ScriptedTurn = { calls: ScriptedCall[] } | { text: string }

/**
 * What the scripted models of the framework tests play, whatever the framework: create a wallet,
 * pay 0.1 ETH from the funded wallet and wait for it, then try 0.8 ETH (above the approval
 * threshold) and report what it was told. `next(results)` takes the tool results so far (JSON).
 */
export function agentScenario(fixture: Fixture) {
  const recipient = freshAddress()
  // biome-ignore lint/suspicious/noExplicitAny: the script reads the JSON the tools answered
  function next(results: any[]): ScriptedTurn {
    const pay = (value: string, key: string): ScriptedTurn => ({
      calls: [{ name: 'send', input: { wallet: fixture.wallet, to: recipient, value, idempotencyKey: key } }],
    })
    switch (results.length) {
      case 0:
        return {
          calls: [{ name: 'create_wallet', input: { agentName: 'framework-bot', idempotencyKey: 'bot-1' } }],
        }
      case 1:
        return pay('0.1', 'pay-small')
      case 2:
        return {
          calls: [
            { name: 'wait_for_transaction', input: { transaction: results[1].hash, timeoutMs: 30_000 } },
          ],
        }
      case 3:
        return pay('0.8', 'pay-large')
      default: {
        const paused = results[3]
        return { text: `${paused.status} ${paused.approval?.id}: ${paused.howToApprove?.message}` }
      }
    }
  }
  return { recipient, next }
}

/**
 * The effect on the devnet and in the wallet service of the scenario: the wallet exists, the small
 * payment confirmed, the large one waits for a human and was approved by no tool.
 */
export async function expectScenarioEffects(
  fixture: Fixture,
  scenario: ReturnType<typeof agentScenario>,
  // biome-ignore lint/suspicious/noExplicitAny: the tool results as JSON
  results: any[],
  offeredTools: string[],
): Promise<void> {
  expect(results).toHaveLength(4)
  const [created, sent, waited, paused] = results
  const { wallets } = await fixture.aw.as(fixture.agent).listWallets()
  expect(wallets.map((wallet) => wallet.address)).toContain(created.wallet.address)
  expect(sent).toMatchObject({ status: 'submitted', hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
  expect(waited).toMatchObject({ status: 'confirmed', final: true, hash: sent.hash })
  expect(paused).toMatchObject({
    status: 'pending_approval',
    hash: null,
    approval: { id: expect.any(String) },
    howToApprove: { message: expect.stringContaining(paused.approval.id) },
  })
  // Only the 0.1 went out; the 0.8 still waits for a human: no tool approved it.
  const balance = await fixture.devnet.provider.request({
    method: 'eth_getBalance',
    params: [scenario.recipient, 'latest'],
  })
  expect(BigInt(balance as string)).toBe(parseEther('0.1'))
  const { approval } = await fixture.aw.getApproval({ approvalId: paused.approval.id })
  expect(approval.status).toBe('pending')
  expect(offeredTools).toContain('send')
  expect(offeredTools.filter((name) => forbiddenToolName.test(name))).toEqual([])
}

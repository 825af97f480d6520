import {
  type AgentWallet,
  type AuditLine,
  auditLines,
  rulesPolicyEngine,
  verifyAuditTrail,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { describe, expect, it } from 'vitest'
import {
  approvalOf,
  approver,
  freshAddress,
  fundedWallet,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'
import { withoutAutomine } from '../helpers/mempool.js'

// Every policy decision is in the audit trail, re-run by verify: also the speed-up and cancel
// re-judgement and the ENS registration's check of its rent (docs/security.md).
let devnet: Devnet
let aw: AgentWallet
useDevnetAgentWallet((started) => ({ devnet, aw } = started), {
  audit: { key: 'd4'.repeat(32), checkpointEvery: 100 },
  replaceStuckAfterMs: false,
})

type Decision = { decision: { decision: string; ruleId?: string }; intent: { to: string; amount: unknown } }

async function decisions(walletId: string): Promise<(AuditLine & { payload: Decision })[]> {
  const lines: AuditLine[] = []
  for await (const line of auditLines(aw.context.storage, 'default'))
    if (line.kind === 'policy.decision' && line.subjects.walletId === walletId) lines.push(line)
  return lines as (AuditLine & { payload: Decision })[]
}

async function verified(): Promise<ReturnType<typeof verifyAuditTrail>> {
  const lines: AuditLine[] = []
  for await (const line of auditLines(aw.context.storage, 'default')) lines.push(line)
  return verifyAuditTrail(lines, { engine: rulesPolicyEngine() })
}

describe('decisions in the audit trail', () => {
  it('records the re-judgement of a speed-up, allowed and denied, and of a cancel', async () => {
    const wallet = await fundedWallet(aw, devnet, '5')
    const rule = { type: 'max_per_tx', asset: 'native', max: '1', id: 'cap' } as const
    await aw.updatePolicyRules({ wallet: wallet.address, rules: [rule] })
    await withoutAutomine(devnet, async () => {
      const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.5' })
      await aw.speedUp({ transaction: transaction.id })
      await aw.updatePolicyRules({ wallet: wallet.address, rules: [{ ...rule, max: '0.1' }] })
      await expect(aw.speedUp({ transaction: transaction.id })).rejects.toMatchObject({
        code: 'policy_blocked',
      })
      await aw.cancel({ transaction: transaction.id })
      const judged = (await decisions(wallet.id)).filter(
        (line) => line.subjects.transactionId === transaction.id,
      )
      expect(judged.map((line) => line.payload.decision.decision)).toEqual([
        'allow',
        'allow',
        'deny',
        'allow',
      ])
      // The cancel is judged as a transfer of nothing to the wallet itself.
      expect(judged[3]!.payload.intent).toMatchObject({ to: wallet.address, amount: { $bigint: '0' } })
    })
    const { problems, decisionsRerun } = await verified()
    expect(problems).toEqual([])
    expect(decisionsRerun).toBeGreaterThanOrEqual(4)
  })

  it('records the ENS registration’s check of its rent, denied before anything is sent', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'rent-capped')
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'max_per_tx', asset: 'native', max: '0.0001' }],
    })
    await expect(
      aw.registerEnsName({ name: 'auditcapped.eth', wallet: wallet.address }),
    ).rejects.toMatchObject({
      code: 'policy_blocked',
    })
    const [judged] = await decisions(wallet.id)
    expect(judged?.payload).toMatchObject({
      decision: { decision: 'deny' },
      intent: { to: devnet.addressBook.ens.controller },
    })
    expect((await verified()).problems).toEqual([])
  })

  it('records a decision whose intent the wallet cannot pay, at the send and at its approval', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'short')
    await expect(aw.send({ wallet: wallet.address, to: freshAddress(), value: '5' })).rejects.toMatchObject({
      code: 'insufficient_funds',
    })
    expect((await decisions(wallet.id)).map((line) => line.payload.decision.decision)).toEqual(['allow'])

    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'require_approval', asset: 'native', above: '0.5' }],
    })
    const first = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.6' })
    const second = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.6' })
    const human = aw.as(approver)
    const done = await human.approve({ approvalId: approvalOf(first).id })
    await aw.waitForTransaction({ transaction: done.transaction.id })
    await expect(human.approve({ approvalId: approvalOf(second).id })).rejects.toMatchObject({
      code: 'insufficient_funds',
    })
    const judged = (await decisions(wallet.id)).filter(
      (line) => line.subjects.transactionId === second.transaction.id,
    )
    // Paused when sent, then judged again at the approval the money was gone for.
    expect(judged.map((line) => line.payload.decision.decision)).toEqual([
      'require_approval',
      'require_approval',
    ])
    expect((await verified()).problems).toEqual([])
  })

  it('records each counted spend once: a decision names the wallet’s last one and adds what changed', async () => {
    const wallet = await fundedWallet(aw, devnet, '10', 'windowed')
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'spend_limit', asset: 'native', max: '0.5', window: '24h', id: 'day' }],
    })
    // Three at once, then one at a time: each send is counted by every later decision of the day.
    await Promise.all(
      [1, 2, 3].map(() => aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })),
    )
    for (let index = 0; index < 12; index++)
      await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
    // Over the day's limit: denied, with the whole window counted.
    await expect(aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.4' })).rejects.toMatchObject(
      {
        code: 'policy_blocked',
      },
    )
    type Recorded = { recent: { after?: string; drop?: number[]; add: [number, unknown][] } }
    const judged = (await decisions(wallet.id)) as unknown as (AuditLine & { payload: Recorded })[]
    expect(judged).toHaveLength(16)
    const hashes = new Set<string>()
    for (const [index, line] of judged.entries()) {
      const { after, add } = line.payload.recent
      // Sequential sends after the first name an earlier decision of the trail and add one spend.
      if (index >= 4) {
        expect(hashes.has(after!)).toBe(true)
        expect(add).toHaveLength(1)
      }
      hashes.add(line.hash)
    }
    const sizes = judged.slice(4, 15).map((line) => JSON.stringify(line.payload).length)
    // The 15th send's entry is no bigger than the 5th's but for the digits of its one spend's position.
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThan(40)
    const { problems, decisionsRerun } = await verified()
    expect(problems).toEqual([])
    expect(decisionsRerun).toBeGreaterThanOrEqual(16)

    // The last decision, re-run on a trail missing the one it names, cannot be rebuilt: reported.
    const lines: AuditLine[] = []
    for await (const line of auditLines(aw.context.storage, 'default')) lines.push(line)
    const last = judged.at(-1)!
    const named = lines.findIndex((line) => line.hash === last.payload.recent.after)
    const report = verifyAuditTrail(lines.toSpliced(named, 1), { engine: rulesPolicyEngine() })
    expect(report.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'seq_gap' }),
        expect.objectContaining({ code: 'decision_error', seq: last.seq }),
      ]),
    )
  })
})

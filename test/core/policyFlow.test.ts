import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { encodeFunctionData, erc20Abi, parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  freshAddress,
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet
let clock = Date.parse('2026-11-23T10:00:00Z') // a Monday, 10:00 UTC

useDevnetAgentWallet((started) => ({ devnet, aw } = started), { now: () => new Date(clock) })

async function walletWith(rules: unknown[]) {
  const wallet = await fundedWallet(aw, devnet, '10')
  await aw.updatePolicyRules({ wallet: wallet.address, rules })
  return wallet
}

describe('policy on the money path', () => {
  it('max_per_tx: inclusive limit, one wei over is blocked and names the numbers', async () => {
    const wallet = await walletWith([{ id: 'cap', type: 'max_per_tx', asset: 'native', max: '0.5' }])
    expect((await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.5' })).status).toBe(
      'submitted',
    )
    const error = await aw
      .send({ wallet: wallet.address, to: freshAddress(), value: '0.500000000000000001' })
      .catch((e) => e)
    expect(error).toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'cap', ruleType: 'max_per_tx' },
    })
    expect(error.details).toMatchObject({ limit: '0.5' })
  })

  it('records a blocked intent in history with its rule, and emits policy.blocked', async () => {
    const blocked: string[] = []
    aw.bus.on('policy.blocked', (event) => blocked.push(event.data.transactionId))
    const wallet = await walletWith([{ type: 'deny_recipients', addresses: [devnet.accounts[5]!.address] }])
    await expect(
      aw.send({ wallet: wallet.address, to: devnet.accounts[5]!.address, value: '0.1' }),
    ).rejects.toMatchObject({
      code: 'policy_blocked',
    })
    const { transactions } = await aw.listHistory({ wallet: wallet.address })
    expect(transactions[0]?.status).toBe('blocked')
    expect(transactions[0]?.policy.decision).toBe('deny')
    await expect.poll(() => blocked).toContain(transactions[0]!.id)
  })

  it('allow_recipients lets listed recipients through and blocks the rest', async () => {
    const friend = freshAddress()
    const wallet = await walletWith([{ type: 'allow_recipients', addresses: [friend] }])
    expect((await aw.send({ wallet: wallet.address, to: friend, value: '0.1' })).status).toBe('submitted')
    await expect(aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })).rejects.toMatchObject(
      {
        code: 'policy_blocked',
      },
    )
  })

  it('allow_contracts gates contract calls by address and selector', async () => {
    const usdc = devnet.addressBook.tokens!.find((token) => token.decimals === 6)!
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [freshAddress(), 1n] })
    const transfer = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [freshAddress(), 0n],
    })
    const wallet = await walletWith([
      { type: 'allow_contracts', contracts: [{ address: usdc.address, selectors: [approve.slice(0, 10)] }] },
    ])
    const allowed = await aw.send({ wallet: wallet.address, to: usdc.address, value: '0', data: approve })
    expect(allowed.transaction.kind).toBe('contract_call')
    expect((await aw.waitForTransaction({ transaction: allowed.transaction.id })).status).toBe('confirmed')
    await expect(
      aw.send({ wallet: wallet.address, to: usdc.address, value: '0', data: transfer }),
    ).rejects.toMatchObject({
      code: 'policy_blocked',
    })
    await expect(
      aw.send({ wallet: wallet.address, to: devnet.addressBook.weth!, value: '0', data: approve }),
    ).rejects.toMatchObject({ code: 'policy_blocked' })
  })

  it('allow_chains blocks chains not listed', async () => {
    const wallet = await walletWith([{ type: 'allow_chains', chains: ['mainnet'] }])
    await expect(aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })).rejects.toMatchObject(
      {
        code: 'policy_blocked',
        details: { ruleType: 'allow_chains' },
      },
    )
  })

  it('rate_limit counts transactions in the window', async () => {
    const wallet = await walletWith([{ type: 'rate_limit', max: 3, window: '1h' }])
    for (let index = 0; index < 3; index++) {
      expect((await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })).status).toBe(
        'submitted',
      )
    }
    await expect(
      aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' }),
    ).rejects.toMatchObject({
      code: 'policy_blocked',
      details: { ruleType: 'rate_limit' },
    })
    clock += 61 * 60 * 1000
    expect((await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })).status).toBe(
      'submitted',
    )
    clock -= 61 * 60 * 1000
  })

  it('time_window allows inside office hours only', async () => {
    const wallet = await walletWith([
      {
        type: 'time_window',
        days: ['mon', 'tue', 'wed', 'thu', 'fri'],
        from: '09:00',
        to: '17:00',
        tz: 'UTC',
      },
    ])
    expect((await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })).status).toBe(
      'submitted',
    )
    const saved = clock
    clock = Date.parse('2026-11-22T10:00:00Z') // Sunday
    await expect(
      aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' }),
    ).rejects.toMatchObject({
      code: 'policy_blocked',
      details: { ruleType: 'time_window' },
    })
    clock = saved
  })

  it('require_approval for new recipients pauses payments to a recipient never paid', async () => {
    const wallet = await walletWith([{ type: 'require_approval', newRecipients: true }])
    const known = freshAddress()
    expect((await aw.send({ wallet: wallet.address, to: known, value: '0.01' })).status).toBe(
      'pending_approval',
    )
    // Nothing has been sent to it yet, so it is still new.
    expect((await aw.send({ wallet: wallet.address, to: known, value: '0.01' })).status).toBe(
      'pending_approval',
    )
  })

  it('spend_limit tracks tokens in token units', async () => {
    const usdc = devnet.addressBook.tokens!.find((token) => token.decimals === 6)!
    const wallet = await walletWith([{ type: 'spend_limit', asset: usdc.address, max: '10', window: '24h' }])
    await devnet.mintToken(usdc.address, wallet.address, 100_000_000n)
    expect(
      (await aw.send({ wallet: wallet.address, to: freshAddress(), value: '6', token: usdc.address })).status,
    ).toBe('submitted')
    expect(
      (await aw.send({ wallet: wallet.address, to: freshAddress(), value: '4', token: usdc.address })).status,
    ).toBe('submitted')
    await expect(
      aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.000001', token: usdc.address }),
    ).rejects.toMatchObject({ code: 'policy_blocked', details: { ruleType: 'spend_limit' } })
    // Native sends are another asset and stay unlimited here.
    expect((await aw.send({ wallet: wallet.address, to: freshAddress(), value: '1' })).status).toBe(
      'submitted',
    )
  })

  it('tenant rules apply beside wallet rules, and only admins may change them', async () => {
    const wallet = await fundedWallet(aw, devnet, '5')
    await aw.updatePolicyRules({ rules: [{ type: 'max_per_tx', asset: 'native', max: '2' }] })
    try {
      await expect(
        aw.send({ wallet: wallet.address, to: freshAddress(), value: '2.1' }),
      ).rejects.toMatchObject({
        code: 'policy_blocked',
      })
      const agent = aw.as({ tenantId: 'default', id: 'agent', role: 'agent' })
      await expect(agent.updatePolicyRules({ rules: [] })).rejects.toMatchObject({ code: 'forbidden' })
      const { decision } = await aw.evaluatePolicy({
        wallet: wallet.address,
        to: freshAddress(),
        value: '2.1',
      })
      expect(decision.decision).toBe('deny')
      expect((await aw.listHistory({ wallet: wallet.address })).count).toBe(1)
    } finally {
      await aw.updatePolicyRules({ rules: [] })
    }
  })

  it('rejects rules the engine cannot enforce', async () => {
    await expect(
      aw.updatePolicyRules({ rules: [{ type: 'max_per_tx', asset: 'native', max: '-1' }] }),
    ).rejects.toMatchObject({ code: 'validation_failed' })
    await expect(aw.updatePolicyRules({ rules: [{ type: 'teleport' }] })).rejects.toMatchObject({
      code: 'validation_failed',
    })
  })

  it('moves the value only for allowed sends', async () => {
    const to = freshAddress()
    const wallet = await walletWith([{ type: 'max_per_tx', asset: 'native', max: '1' }])
    await aw
      .send({ wallet: wallet.address, to, value: '1' })
      .then((sent) => aw.waitForTransaction({ transaction: sent.transaction.id }))
    await aw.send({ wallet: wallet.address, to, value: '1.5' }).catch(() => undefined)
    expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(parseEther('1'))
  })
})

import { type AgentWallet, relayerAccount } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { parseEther } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { freshAddress, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'

// The flows a smart wallet cannot take yet (docs/smart-accounts.md, "Not done") are refused with a
// clear 4xx before anything is signed or saved — not a vault `not_found`, not one op per call.

let devnet: Devnet
let aw: AgentWallet
let smart: `0x${string}`
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

beforeAll(async () => {
  await devnet.faucet((await relayerAccount(aw.context, 'default')).address, parseEther('10'))
  const { wallet } = await aw.createWallet({ agentName: 'smart-refused', kind: 'smart' })
  smart = wallet.address
  await devnet.faucet(smart, parseEther('5'))
})

describe('a smart wallet in a flow it cannot take yet', () => {
  const flows: [string, () => Promise<unknown>][] = [
    ['swap', () => aw.swap({ fromToken: 'ETH', toToken: 'DAI', amount: '0.1', wallet: smart })],
    ['stake', () => aw.stake({ protocol: 'lido', amount: '0.1', wallet: smart })],
    ['register an ENS name', () => aw.registerEnsName({ name: 'smartrefused.eth', wallet: smart })],
    ['register an identity', () => aw.registerIdentity({ wallet: smart, agentName: 'a', agentType: 'x' })],
  ]
  it.each(flows)('%s: 422 wallet_kind_unsupported, nothing signed or saved', async (flow, call) => {
    await expect(call()).rejects.toMatchObject({
      code: 'wallet_kind_unsupported',
      details: { wallet: smart, kind: 'smart', flow },
    })
    expect((await aw.listHistory({ wallet: smart })).count).toBe(0)
  })
})

describe('a relayer wallet, which only carries user operations', () => {
  it('cannot own a Safe: 422 wallet_kind_unsupported, nothing signed or saved', async () => {
    const relayer = (await relayerAccount(aw.context, 'default')).address
    const before = (await aw.listHistory({ wallet: relayer })).count
    await expect(
      aw.deploySafe({ owners: [relayer, freshAddress()], threshold: 1, wallet: relayer }),
    ).rejects.toMatchObject({
      code: 'wallet_kind_unsupported',
      details: { kind: 'relayer', flow: 'own a Safe' },
    })
    expect((await aw.listHistory({ wallet: relayer })).count).toBe(before)
  })
})

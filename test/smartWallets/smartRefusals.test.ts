import { type AgentWallet, relayerAccount } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { parseEther } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { freshAddress, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'

// The flows a smart wallet cannot take yet (docs/smart-accounts.md, "Not done") are refused with a
// clear 4xx before anything is signed or saved — not a vault `not_found`, not one op per call. Swaps
// and staking are taken by smart wallets (smartSwap.test.ts), never by the tenant's relayer.

let devnet: Devnet
let aw: AgentWallet
let smart: `0x${string}`
let relayer: `0x${string}`
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

beforeAll(async () => {
  relayer = (await relayerAccount(aw.context, 'default')).address
  await devnet.faucet(relayer, parseEther('10'))
  const { wallet } = await aw.createWallet({ agentName: 'smart-refused', kind: 'smart' })
  smart = wallet.address
  await devnet.faucet(smart, parseEther('5'))
})

describe('a smart wallet in a flow it cannot take yet', () => {
  const flows: [string, () => Promise<unknown>][] = [
    ['own a Safe', () => aw.deploySafe({ owners: [smart, freshAddress()], threshold: 1, wallet: smart })],
    ['pay by x402', () => aw.payAndFetch({ wallet: smart, url: 'http://127.0.0.1:9/paid' })],
  ]
  it.each(flows)('%s: 422 wallet_kind_unsupported, nothing signed or saved', async (flow, call) => {
    await expect(call()).rejects.toMatchObject({
      code: 'wallet_kind_unsupported',
      details: { wallet: smart, kind: 'smart', flow },
    })
    expect((await aw.listHistory({ wallet: smart })).count).toBe(0)
  })
})

describe('the tenant’s relayer account', () => {
  // Swaps, staking, identity and ENS take smart wallets (smartSwap, smartIdentity, smartEns); the
  // relayer acts for no agent.
  const flows: [string, () => Promise<unknown>][] = [
    ['swap', () => aw.swap({ fromToken: 'ETH', toToken: 'DAI', amount: '0.1', wallet: relayer })],
    ['stake', () => aw.stake({ protocol: 'lido', amount: '0.1', wallet: relayer })],
    ['register an ENS name', () => aw.registerEnsName({ name: 'relayerrefused.eth', wallet: relayer })],
    ['register an identity', () => aw.registerIdentity({ wallet: relayer, agentName: 'a', agentType: 'x' })],
  ]
  it.each(flows)('cannot %s: 422 wallet_kind_unsupported, nothing signed or saved', async (flow, call) => {
    await expect(call()).rejects.toMatchObject({
      code: 'wallet_kind_unsupported',
      details: { wallet: relayer, kind: 'relayer', flow },
    })
    expect((await aw.listHistory({ wallet: relayer })).transactions.map((tx) => tx.kind)).not.toContain(flow)
    expect(await aw.context.storage.query('identities', { where: { walletAddress: relayer } })).toEqual([])
    expect(await aw.context.storage.query('ens_names', { where: { owner: relayer } })).toEqual([])
  })
})

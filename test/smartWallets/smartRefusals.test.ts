import { type AgentWallet, relayerAccount } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { parseEther } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { freshAddress, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'

// Every flow takes a smart wallet (smartSwap, smartIdentity, smartEns, smartSafe, smartX402; an x402
// token without EIP-1271 signatures is refused in smartX402.test.ts). The tenant's relayer, which only
// carries user operations and acts for no agent, is refused in each with a clear 4xx before anything
// is signed or saved — not a vault `not_found`.

let devnet: Devnet
let aw: AgentWallet
let relayer: `0x${string}`
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

beforeAll(async () => {
  relayer = (await relayerAccount(aw.context, 'default')).address
  await devnet.faucet(relayer, parseEther('10'))
})

describe('the tenant’s relayer account', () => {
  const flows: [string, () => Promise<unknown>][] = [
    ['swap', () => aw.swap({ fromToken: 'ETH', toToken: 'DAI', amount: '0.1', wallet: relayer })],
    ['stake', () => aw.stake({ protocol: 'lido', amount: '0.1', wallet: relayer })],
    ['register an ENS name', () => aw.registerEnsName({ name: 'relayerrefused.eth', wallet: relayer })],
    ['register an identity', () => aw.registerIdentity({ wallet: relayer, agentName: 'a', agentType: 'x' })],
    ['own a Safe', () => aw.deploySafe({ owners: [relayer, freshAddress()], threshold: 1, wallet: relayer })],
    ['pay by x402', () => aw.payAndFetch({ wallet: relayer, url: 'http://127.0.0.1:9/paid' })],
  ]
  it.each(flows)('cannot %s: 422 wallet_kind_unsupported, nothing signed or saved', async (flow, call) => {
    const before = (await aw.listHistory({ wallet: relayer })).count
    await expect(call()).rejects.toMatchObject({
      code: 'wallet_kind_unsupported',
      details: { wallet: relayer, kind: 'relayer', flow },
    })
    expect((await aw.listHistory({ wallet: relayer })).count).toBe(before)
    expect(await aw.context.storage.query('identities', { where: { walletAddress: relayer } })).toEqual([])
    expect(await aw.context.storage.query('ens_names', { where: { owner: relayer } })).toEqual([])
  })
})

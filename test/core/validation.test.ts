import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentWalletOn, freshAddress, fundedWallet, startDevnet } from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet
let from: `0x${string}`

beforeAll(async () => {
  devnet = await startDevnet()
  aw = await agentWalletOn(devnet)
  from = (await fundedWallet(aw, devnet, '5')).address
})
afterAll(async () => {
  await aw?.close()
  await devnet?.close()
})

const recipient = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const usdcDecimals = 6

describe('malformed send inputs', () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['address too short', { to: '0x1234', value: '0.1' }],
    ['address not hex', { to: `0x${'zz'.repeat(20)}`, value: '0.1' }],
    ['mixed-case address with a bad checksum', { to: recipient.replace('C51812', 'c51812'), value: '0.1' }],
    ['missing recipient', { value: '0.1' }],
    ['negative amount', { to: recipient, value: '-1' }],
    ['NaN amount', { to: recipient, value: 'NaN' }],
    ['amount as a JSON number', { to: recipient, value: 0.1 }],
    ['exponent amount', { to: recipient, value: '1e18' }],
    ['hex amount', { to: recipient, value: '0x10' }],
    ['empty amount', { to: recipient, value: '' }],
    ['more decimals than ETH has', { to: recipient, value: '0.0000000000000000001' }],
    ['unknown field (a typo must not move money)', { to: recipient, value: '0.1', vaule: '1' }],
    ['calldata that is not hex', { to: recipient, value: '0', data: '0xzz' }],
    ['token and data together', { to: recipient, value: '1', token: recipient, data: '0x' }],
  ]
  it.each(cases)('%s → validation_failed', async (_name, body) => {
    await expect(aw.send({ wallet: from, ...body } as never)).rejects.toMatchObject({
      code: 'validation_failed',
    })
  })

  it('refuses more decimals than the token has', async () => {
    const usdc = devnet.addressBook.tokens!.find((token) => token.decimals === usdcDecimals)!
    await expect(
      aw.send({ wallet: from, to: recipient, value: '1.0000001', token: usdc.address }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      details: { reason: 'too_precise' },
    })
  })

  it('refuses an unknown token (an address that is not an ERC-20)', async () => {
    await expect(
      aw.send({ wallet: from, to: recipient, value: '1', token: freshAddress() }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
    })
  })

  it('answers not_found for a wallet that is not managed here', async () => {
    await expect(aw.send({ wallet: freshAddress(), to: recipient, value: '0.1' })).rejects.toMatchObject({
      code: 'not_found',
    })
  })

  it('answers unsupported_chain for an unknown chain', async () => {
    await expect(
      aw.send({ wallet: from, to: recipient, value: '0.1', chain: 'nowhere' }),
    ).rejects.toMatchObject({
      code: 'unsupported_chain',
    })
  })

  it('stores nothing for refused inputs', async () => {
    expect((await aw.listHistory({ wallet: from })).count).toBe(0)
  })
})

describe('wallets', () => {
  it('imports a key once; a second import of the same key is a conflict', async () => {
    const privateKey = devnet.accounts[3]!.privateKey
    const { wallet: imported } = await aw.importWallet({ privateKey, agentName: 'imported' })
    expect(imported.address).toBe(devnet.accounts[3]!.address)
    await expect(aw.importWallet({ privateKey, agentName: 'again' })).rejects.toMatchObject({
      code: 'conflict',
    })
  })

  it('scopes wallets to their owner principal and tenant', async () => {
    const agentA = aw.as({ tenantId: 't1', id: 'agent-a', role: 'agent' })
    const agentB = aw.as({ tenantId: 't1', id: 'agent-b', role: 'agent' })
    const admin = aw.as({ tenantId: 't1', id: 'admin', role: 'admin' })
    const outsider = aw.as({ tenantId: 't2', id: 'admin-2', role: 'admin' })
    const { wallet } = await agentA.createWallet({ agentName: 'a' })
    expect((await agentA.listWallets()).wallets.map((entry) => entry.address)).toEqual([wallet.address])
    expect((await agentB.listWallets()).wallets).toEqual([])
    expect((await admin.listWallets()).wallets.map((entry) => entry.address)).toEqual([wallet.address])
    await expect(agentB.getBalance({ wallet: wallet.address })).rejects.toMatchObject({ code: 'not_found' })
    await expect(outsider.getWallet({ wallet: wallet.address })).rejects.toMatchObject({ code: 'not_found' })
  })

  it('pages wallet lists oldest first, with the total', async () => {
    const agent = aw.as({ tenantId: 't-pages', id: 'pager', role: 'agent' })
    const created = []
    for (let i = 0; i < 5; i++)
      created.push((await agent.createWallet({ agentName: `page-${i}` })).wallet.address)
    // Oldest first; wallets made in the same millisecond are ordered by id, so pages never overlap.
    const all = (await agent.listWallets()).wallets.map((wallet) => wallet.address)
    expect([...all].sort()).toEqual([...created].sort())
    const page = await agent.listWallets({ limit: 2, offset: 2 })
    expect(page).toMatchObject({ count: 5, limit: 2, offset: 2 })
    expect(page.wallets.map((wallet) => wallet.address)).toEqual(all.slice(2, 4))
    const pages = []
    for (let offset = 0; offset < 5; offset += 2)
      pages.push(...(await agent.listWallets({ limit: 2, offset })).wallets.map((wallet) => wallet.address))
    expect(pages).toEqual(all)
    expect((await agent.listWallets({ offset: 5 })).wallets).toEqual([])
    await expect(agent.listWallets({ limit: 1001 })).rejects.toMatchObject({ code: 'validation_failed' })
    await expect(agent.listWallets({ limit: 0 })).rejects.toMatchObject({ code: 'validation_failed' })
  })

  it('refuses an empty agent name and unknown fields', async () => {
    await expect(aw.createWallet({ agentName: '' })).rejects.toMatchObject({ code: 'validation_failed' })
    await expect(aw.createWallet({ agentName: 'x', color: 'red' } as never)).rejects.toMatchObject({
      code: 'validation_failed',
    })
  })
})

import { createAgentWallet, faucetCapEth } from '@agentwallet/core'
import { formatEther, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './helpers/testServer.js'

let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(async () => {
  await t?.close()
})

const fresh = () => privateKeyToAccount(generatePrivateKey()).address

describe('POST /devnet/faucet', () => {
  it('adds ETH to an address on the devnet, and the balance on chain says so', async () => {
    const address = fresh()
    const first = await t.call('POST', '/devnet/faucet', { body: { address, amount: '1.5' } })
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body).toMatchObject({
      success: true,
      address,
      chain: 'devnet',
      amount: '1.5',
      balance: '1.5',
    })
    const second = await t.call('POST', '/devnet/faucet', { body: { address } })
    const expected = parseEther('1.5') + parseEther(second.body.amount)
    expect(second.body.balance).toBe(formatEther(expected))
    const onChain = await t.devnet.provider.request({ method: 'eth_getBalance', params: [address, 'latest'] })
    expect(BigInt(onChain as string)).toBe(expected)
  })

  it('mints a test token of the address book, by symbol, in its units; an unknown token is 400', async () => {
    const address = fresh()
    const minted = await t.call('POST', '/devnet/faucet', {
      body: { address, token: 'usdc', amount: '250.5' },
    })
    expect(minted.status, JSON.stringify(minted.body)).toBe(200)
    expect(minted.body).toMatchObject({ chain: 'devnet', token: 'USDC', amount: '250.5', balance: '250.5' })
    const unknown = await t.call('POST', '/devnet/faucet', { body: { address, token: 'NOPE' } })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.code).toBe('validation_failed')
  })

  it(`refuses more than the cap (${faucetCapEth} ETH), naming it`, async () => {
    const over = `${BigInt(faucetCapEth) + 1n}`
    const { status, body } = await t.call('POST', '/devnet/faucet', {
      body: { address: fresh(), amount: over },
    })
    expect(status).toBe(400)
    expect(body.error.code).toBe('validation_failed')
    expect(body.error.message).toContain(`${faucetCapEth} ETH`)
    expect(body.error.details).toMatchObject({ reason: 'faucet_cap', cap: faucetCapEth })
  })

  it('is for admins only', async () => {
    const created = await t.call('POST', '/api-keys', { body: { name: 'faucet-agent', role: 'agent' } })
    const { status, body } = await t.call('POST', '/devnet/faucet', {
      key: created.body.key,
      body: { address: fresh(), amount: '1' },
    })
    expect(status).toBe(403)
    expect(body.error.code).toBe('forbidden')
  })

  it('refuses a chain that is no devnet', async () => {
    const aw = await createAgentWallet({
      chains: { sepolia: { provider: t.devnet.provider, chainId: 11155111 } },
      track: false,
    })
    try {
      const admin = aw.as({ tenantId: 'default', id: 'admin', role: 'admin' })
      await expect(admin.devnetFaucet({ address: fresh(), amount: '1' })).rejects.toMatchObject({
        code: 'unsupported_chain',
        details: { chain: 'sepolia', chainId: 11155111 },
      })
    } finally {
      await aw.close()
    }
  })
})

describe('/onboarding', () => {
  it('funds the wallet from the faucet between creating it and sending, and says who approves', async () => {
    const { body } = await t.call('GET', '/onboarding', { key: '' })
    const titles: string[] = body.steps.map((step: { title: string }) => step.title)
    const commands: string[] = body.steps.map((step: { command: string }) => step.command)
    const created = commands.findIndex((command) => command.endsWith('/wallet/create'))
    const funded = commands.findIndex((command) => command.endsWith('/devnet/faucet'))
    const sent = commands.findIndex((command) => command.endsWith('/send'))
    expect(created, titles.join(' | ')).toBeGreaterThanOrEqual(0)
    expect(funded, titles.join(' | ')).toBeGreaterThan(created)
    expect(sent, titles.join(' | ')).toBeGreaterThan(funded)
    expect(body.auth.approvals).toMatch(/never the key that sent/)
  })
})

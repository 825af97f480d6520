import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKeyPairSignerFromPrivateKeyBytes, getAddressEncoder } from '@solana/kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliProcess, callApi, startServer } from '../replicas/cliProcess.js'

const adminKey = `aw_solana_serve_admin_${'5'.repeat(32)}`
const env = { AGENTWALLET_ADMIN_KEY: adminKey, AGENTWALLET_LOG_LEVEL: 'warn' }
const base58Address = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/
let dataDir: string
const running = new Set<CliProcess>()
let url: string

/** `agentwallet serve` on its embedded defaults (the EVM devnet and the Solana devnet) on the suite's data dir. */
async function serve(): Promise<{ server: CliProcess; url: string }> {
  return startServer(['--port', '0', '--data-dir', dataDir], env, running)
}

const call = (method: string, path: string, body?: unknown, idempotencyKey?: string) =>
  callApi(url, adminKey, method, path, body, idempotencyKey)

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'aw-solana-serve-'))
  url = (await serve()).url
}, 120_000)
afterAll(async () => {
  await Promise.all([...running].map((server) => server.kill('SIGKILL')))
  rmSync(dataDir, { recursive: true, force: true })
})

describe('serve on its embedded defaults: a Solana wallet over HTTP', () => {
  let wallet: string

  it('lists the Solana devnet as chain "solana" beside the EVM devnet', async () => {
    const { status, body } = await call('GET', '/onboarding')
    expect(status).toBe(200)
    expect(body.chains).toEqual([
      { name: 'devnet', chainId: 31337, family: 'evm' },
      { name: 'solana', chainId: 0, family: 'solana' },
    ])
    const ready = await call('GET', '/health/ready')
    expect(ready.status).toBe(200)
    expect(ready.body.chains.find((chain: { name: string }) => chain.name === 'solana')).toMatchObject({
      reachable: true,
    })
  })

  it('creates a Solana wallet: an Ed25519 key in the vault, a base58 address', async () => {
    const { status, body } = await call('POST', '/wallet/create', { agentName: 'sol-agent', chain: 'solana' })
    expect(status).toBe(201)
    expect(body.wallet.chain).toBe('solana')
    expect(body.wallet.address).toMatch(base58Address)
    wallet = body.wallet.address
    const read = await call('GET', `/wallet/${wallet}`)
    expect(read.status).toBe(200)
    expect(read.body.wallet.address).toBe(wallet)
  })

  it('funds it from the faucet with SOL and USDC and reads the balances back', async () => {
    const sol = await call('POST', '/devnet/faucet', { chain: 'solana', address: wallet, amount: '2.5' })
    expect(sol.status).toBe(200)
    expect(sol.body).toMatchObject({ chain: 'solana', amount: '2.5', balance: '2.5' })
    const usdc = await call('POST', '/devnet/faucet', {
      chain: 'solana',
      address: wallet,
      token: 'USDC',
      amount: '40',
    })
    expect(usdc.status).toBe(200)
    expect(usdc.body).toMatchObject({ token: 'USDC', amount: '40', balance: '40' })

    const { status, body } = await call('GET', `/wallet/${wallet}/balance?chain=solana`)
    expect(status).toBe(200)
    expect(body).toMatchObject({ address: wallet, chain: 'solana', eth: '2.5', wei: '2500000000' })
    const tokens = Object.fromEntries(body.tokens.map((token: { symbol: string }) => [token.symbol, token]))
    expect(tokens.USDC).toMatchObject({ decimals: 6, balance: '40', raw: '40000000' })
    expect(tokens.DEV).toMatchObject({ decimals: 9, balance: '0' })
  })

  it('refuses a faucet over its cap, an unknown token, and a Solana address on the EVM devnet, with 4xx', async () => {
    const over = await call('POST', '/devnet/faucet', { chain: 'solana', address: wallet, amount: '101' })
    expect([over.status, over.body.error.code]).toEqual([400, 'validation_failed'])
    const unknown = await call('POST', '/devnet/faucet', { chain: 'solana', address: wallet, token: 'NOPE' })
    expect([unknown.status, unknown.body.error.code]).toEqual([400, 'validation_failed'])
    const onEvm = await call('POST', '/devnet/faucet', { chain: 'devnet', address: wallet })
    expect([onEvm.status, onEvm.body.error.code]).toEqual([400, 'validation_failed'])
    const evmOnSolana = await call('POST', '/devnet/faucet', {
      chain: 'solana',
      address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    })
    expect([evmOnSolana.status, evmOnSolana.body.error.code]).toEqual([400, 'validation_failed'])
  })

  it('answers 422 unsupported_chain_family for EVM-only operations on a Solana wallet or chain', async () => {
    const ens = await call('POST', '/ens/register', { name: 'solagent.eth', wallet })
    expect([ens.status, ens.body.error.code]).toEqual([422, 'unsupported_chain_family'])
    const smart = await call('POST', '/wallet/create', { agentName: 'x', chain: 'solana', kind: 'smart' })
    expect([smart.status, smart.body.error.code]).toEqual([422, 'unsupported_chain_family'])
    const onEvm = await call('GET', `/wallet/${wallet}/balance?chain=devnet`)
    expect([onEvm.status, onEvm.body.error.code]).toEqual([422, 'unsupported_chain_family'])
    // Sends on Solana are not carried yet (docs/solana.md): refused before anything is judged or signed.
    // (A base58 `to` is still refused earlier, by the EVM send schema: 400.)
    const send = await call('POST', `/wallet/${wallet}/send`, {
      to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      value: '0.1',
    })
    expect([send.status, send.body.error.code]).toEqual([422, 'unsupported_chain_family'])
  })

  it('imports a Solana CLI keypair file as a Solana wallet at its own address; a bad key is 400, not echoed', async () => {
    const seed = crypto.getRandomValues(new Uint8Array(32))
    const signer = await createKeyPairSignerFromPrivateKeyBytes(seed)
    const secretKey = [...seed, ...getAddressEncoder().encode(signer.address)]
    const imported = await call('POST', '/wallet/import', {
      agentName: 'imported-sol',
      chain: 'solana',
      privateKey: JSON.stringify(secretKey),
    })
    expect(imported.status).toBe(201)
    expect(imported.body.wallet).toMatchObject({ address: signer.address, chain: 'solana' })
    const again = await call('POST', '/wallet/import', {
      agentName: 'twice',
      chain: 'solana',
      privateKey: JSON.stringify(secretKey),
    })
    expect([again.status, again.body.error.code]).toEqual([409, 'conflict'])
    const bad = JSON.stringify(secretKey.slice(0, 40))
    const refused = await call('POST', '/wallet/import', {
      agentName: 'bad',
      chain: 'solana',
      privateKey: bad,
    })
    expect([refused.status, refused.body.error.code]).toEqual([400, 'validation_failed'])
    expect(JSON.stringify(refused.body)).not.toContain(bad.slice(1, 30))
  })

  it('keeps the Solana chain across a restart of serve: the balance is still there', async () => {
    for (const server of running) await server.kill('SIGTERM')
    url = (await serve()).url
    const { status, body } = await call('GET', `/wallet/${wallet}/balance?chain=solana`)
    expect(status).toBe(200)
    expect(body.eth).toBe('2.5')
    expect(body.tokens.find((token: { symbol: string }) => token.symbol === 'USDC').balance).toBe('40')
  }, 120_000)
})

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
    // A send takes the wallet's family's forms: an EVM recipient or calldata on a Solana wallet is 400.
    const send = await call('POST', `/wallet/${wallet}/send`, {
      to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      value: '0.1',
    })
    expect([send.status, send.body.error.code]).toEqual([400, 'validation_failed'])
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

  /** A fresh Solana wallet of the service's, to receive: its balance is read back over HTTP. */
  async function recipient(name: string): Promise<string> {
    const { status, body } = await call('POST', '/wallet/create', { agentName: name, chain: 'solana' })
    expect(status).toBe(201)
    return body.wallet.address
  }

  async function balanceOf(address: string): Promise<{ lamports: bigint; usdc: bigint }> {
    const { status, body } = await call('GET', `/wallet/${address}/balance?chain=solana`)
    expect(status).toBe(200)
    const usdc = body.tokens.find((token: { symbol: string }) => token.symbol === 'USDC')
    return { lamports: BigInt(body.wei), usdc: BigInt(usdc.raw) }
  }

  /** What the stored effects move of `asset` ('native' or a mint) out of the wallet: outs, as a positive sum. */
  function outOf(
    effects: { effects: { kind: string; asset: { address: string }; amount: string }[] },
    asset: string,
  ) {
    return effects.effects
      .filter((effect) => effect.kind === 'out' && effect.asset.address === asset)
      .reduce((sum, effect) => sum + BigInt(effect.amount), 0n)
  }

  async function waitConfirmed(id: string) {
    const { status, body } = await call('GET', `/wallet/tx/${id}/wait?timeoutMs=30000`)
    expect(status).toBe(200)
    expect(body.transaction.status).toBe('confirmed')
    return body.transaction
  }

  it('sends SOL to a fresh recipient: signed, landed, confirmed; the predicted effects are what the chain moved', async () => {
    const to = await recipient('sol-recipient')
    const before = await balanceOf(wallet)
    const sent = await call('POST', `/wallet/${wallet}/send`, { to, value: '0.25' }, 'sol-send-1')
    expect(sent.status).toBe(200)
    expect(sent.body.transaction).toMatchObject({ status: 'submitted', to, chain: 'solana' })
    expect(sent.body.transaction.hash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
    const again = await call('POST', `/wallet/${wallet}/send`, { to, value: '0.25' }, 'sol-send-1')
    expect(again.status).toBe(200)
    expect(again.body.transaction.id).toBe(sent.body.transaction.id)

    const confirmed = await waitConfirmed(sent.body.transaction.id)
    expect(confirmed.effects.status).toBe('known')
    expect(outOf(confirmed.effects, 'native')).toBe(250_000_000n)
    // Read back: the recipient holds exactly what went out; the sender paid it and one signature's fee.
    expect((await balanceOf(to)).lamports).toBe(250_000_000n)
    const after = await balanceOf(wallet)
    expect(before.lamports - after.lamports).toBe(outOf(confirmed.effects, 'native') + 5_000n)
  }, 60_000)

  it('sends USDC (by symbol) to a fresh recipient, creating its token account, paid by the wallet', async () => {
    const to = await recipient('usdc-recipient')
    const before = await balanceOf(wallet)
    const sent = await call('POST', `/wallet/${wallet}/send`, { to, value: '12.5', token: 'USDC' })
    expect(sent.status).toBe(200)
    const confirmed = await waitConfirmed(sent.body.transaction.id)
    expect(confirmed.asset.symbol).toBe('USDC')
    const mint = confirmed.asset.address
    expect(outOf(confirmed.effects, mint)).toBe(12_500_000n)
    expect((await balanceOf(to)).usdc).toBe(12_500_000n)
    const after = await balanceOf(wallet)
    expect(before.usdc - after.usdc).toBe(outOf(confirmed.effects, mint))
    // The recipient's token account's rent is SOL out of the wallet, predicted as such.
    expect(before.lamports - after.lamports).toBe(outOf(confirmed.effects, 'native') + 5_000n)
    expect(outOf(confirmed.effects, 'native')).toBeGreaterThan(0n)

    const history = await call('GET', `/wallet/${wallet}/history`)
    expect(history.status).toBe(200)
    const ids = history.body.transactions.map((entry: { id: string }) => entry.id)
    expect(ids).toContain(sent.body.transaction.id)
  }, 60_000)

  it('refuses a send over max_per_tx (403 policy_blocked) and an unknown token (400), moving nothing', async () => {
    const rules = await call('POST', '/policy/update', {
      wallet,
      rules: [{ type: 'max_per_tx', asset: 'native', max: '0.5' }],
    })
    expect(rules.status).toBe(200)
    const to = await recipient('blocked-recipient')
    const over = await call('POST', `/wallet/${wallet}/send`, { to, value: '0.75' })
    expect([over.status, over.body.error.code]).toEqual([403, 'policy_blocked'])
    const unknown = await call('POST', `/wallet/${wallet}/send`, { to, value: '1', token: 'NOPE' })
    expect([unknown.status, unknown.body.error.code]).toEqual([400, 'validation_failed'])
    expect((await balanceOf(to)).lamports).toBe(0n)
  }, 60_000)

  it('pauses a send for approval, and an approver’s approval sends it: confirmed', async () => {
    const rules = await call('POST', '/policy/update', {
      wallet,
      rules: [{ type: 'require_approval', always: true }],
    })
    expect(rules.status).toBe(200)
    const approver = await call('POST', '/api-keys', { name: 'sol-approver', role: 'approver' })
    expect(approver.status).toBe(201)
    const to = await recipient('approved-recipient')
    const paused = await call('POST', `/wallet/${wallet}/send`, { to, value: '0.1' })
    expect(paused.status).toBe(202)
    expect(paused.body.transaction.status).toBe('pending_approval')
    expect((await balanceOf(to)).lamports).toBe(0n)

    const approved = await callApi(
      url,
      approver.body.key,
      'POST',
      `/policy/approvals/${paused.body.approval.id}/approve`,
      {},
    )
    expect(approved.status).toBe(200)
    const confirmed = await waitConfirmed(paused.body.transaction.id)
    expect(outOf(confirmed.effects, 'native')).toBe(100_000_000n)
    expect((await balanceOf(to)).lamports).toBe(100_000_000n)
  }, 60_000)
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshAddress, publicClientOf, startDevnet } from '../helpers/devnetAgentWallet.js'
import { type FaultyRpcServer, faultyRpcServer } from '../helpers/faultyChain.js'
import { createSoftHsmToken, type SoftHsmToken } from '../helpers/softHsmToken.js'
import { type CliProcess, startCli } from '../replicas/cliProcess.js'

const adminKey = `aw_pkcs11_serve_admin_${'7'.repeat(32)}`
const metricsToken = 'pkcs11-serve-metrics-token'
let devnet: Devnet
let rpc: FaultyRpcServer
let token: SoftHsmToken
let dataDir: string
const running = new Set<CliProcess>()

beforeAll(async () => {
  devnet = await startDevnet()
  rpc = await faultyRpcServer(devnet.provider)
  token = createSoftHsmToken()
  dataDir = mkdtempSync(join(tmpdir(), 'aw-pkcs11-serve-'))
})
afterAll(async () => {
  await Promise.all([...running].map((server) => server.kill('SIGKILL')))
  await rpc?.close()
  await devnet?.close()
  token?.cleanup()
  rmSync(dataDir, { recursive: true, force: true })
})

/** `agentwallet serve --vault pkcs11` on the token (settings and PIN from env) and the shared data dir. */
async function serve(): Promise<{ server: CliProcess; url: string }> {
  const server = startCli(
    ['serve', '--port', '0', '--data-dir', dataDir, '--chain', `devnet=${rpc.url}`, '--vault', 'pkcs11'],
    {
      ...token.env,
      AGENTWALLET_MASTER_KEY: 'c3'.repeat(32),
      AGENTWALLET_ADMIN_KEY: adminKey,
      AGENTWALLET_LOG_LEVEL: 'warn',
      AGENTWALLET_METRICS_TOKEN: metricsToken,
      AGENTWALLET_PKCS11_MODULE: token.module,
      AGENTWALLET_PKCS11_TOKEN_LABEL: token.tokenLabel,
      AGENTWALLET_PKCS11_PIN: token.pin,
    },
  )
  running.add(server)
  void server.exited.then(() => running.delete(server))
  const url = (await server.waitFor(/AgentWallet listening on (\S+)/, 60_000))[1]!
  return { server, url }
}

async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'x-api-key': adminKey, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

/** The vault's counters on /metrics: signatures made, and bad ones retried (softhsm/SoftHSMv2#901). */
async function vaultCounters(url: string) {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
  const text = await response.text()
  const read = (name: string) =>
    Number(new RegExp(`^${name}\\{vault="pkcs11"\\} (\\d+)`, 'm').exec(text)?.[1])
  return {
    signatures: read('agentwallet_vault_signatures_total'),
    badSignatures: read('agentwallet_vault_bad_signatures_total'),
  }
}

describe('agentwallet serve --vault pkcs11 on SoftHSM2', () => {
  it('loses nothing and sends nothing twice across a kill -9 mid-sends and a restart on the same token', async () => {
    const first = await serve()
    const created = await call(first.url, 'POST', '/wallet/create', { agentName: 'hsm-kill' })
    expect(created.status).toBe(201)
    const wallet = created.body.wallet.address as Address
    await devnet.faucet(wallet, parseEther('10'))
    const recipients = Array.from({ length: 8 }, () => freshAddress())
    const send = (url: string, to: Address, i: number) =>
      call(
        url,
        'POST',
        `/wallet/${wallet}/send`,
        { to, value: '0.01' },
        { 'idempotency-key': `hsm-kill-${i}` },
      )

    // Eight sends at once; the server is killed as soon as the first is answered, the rest mid-flight.
    const inFlight = recipients.map((to, i) => send(first.url, to, i).catch(() => 'lost' as const))
    await Promise.race(inFlight)
    await first.server.kill('SIGKILL')
    await Promise.all(inFlight)

    // The client retries every send with its key on the restarted server: each happens once.
    const second = await serve()
    const answers = await Promise.all(recipients.map((to, i) => send(second.url, to, i)))
    expect(answers.map((answer) => answer.status)).toEqual(recipients.map(() => 200))
    const ids = answers.map((answer) => answer.body.transaction.id as string)
    expect(new Set(ids).size).toBe(recipients.length)
    for (const id of ids) {
      await expect
        .poll(async () => (await call(second.url, 'GET', `/wallet/tx/${id}`)).body.transaction?.status, {
          timeout: 30_000,
        })
        .toBe('confirmed')
    }
    const client = publicClientOf(devnet)
    for (const to of recipients) expect(await client.getBalance({ address: to })).toBe(parseEther('0.01'))
    expect(await client.getTransactionCount({ address: wallet })).toBe(recipients.length)
    const history = await call(second.url, 'GET', `/wallet/${wallet}/history`)
    expect(history.body.transactions).toHaveLength(recipients.length)
    const counters = await vaultCounters(second.url)
    console.info(`[pkcs11 serve, after the restart] ${JSON.stringify(counters)}`)
    expect([Number.isInteger(counters.signatures), Number.isInteger(counters.badSignatures)]).toEqual([
      true,
      true,
    ])
    await second.server.kill('SIGTERM')
  }, 180_000)

  it('answers 503 vault_unavailable while the token is gone, keeps running, and signs again once it is back', async () => {
    const { server, url } = await serve()
    const created = await call(url, 'POST', '/wallet/create', { agentName: 'hsm-vanish' })
    const wallet = created.body.wallet.address as Address
    await devnet.faucet(wallet, parseEther('1'))
    expect((await call(url, 'GET', '/health/ready')).status).toBe(200)

    token.remove()
    try {
      // The readiness report is reused for a second: poll until a probe ran after the removal.
      await expect
        .poll(async () => (await call(url, 'GET', '/health/ready')).status, { timeout: 15_000 })
        .toBe(503)
      const ready = await call(url, 'GET', '/health/ready')
      expect(ready.body.vault).toMatchObject({ name: 'pkcs11', reachable: false, error: 'vault_unavailable' })
      const sent = await call(url, 'POST', `/wallet/${wallet}/send`, { to: freshAddress(), value: '0.1' })
      expect(sent.status).toBe(503)
      expect(sent.body).toMatchObject({ success: false, error: { code: 'vault_unavailable' } })
      const createdMeanwhile = await call(url, 'POST', '/wallet/create', { agentName: 'no-token' })
      expect(createdMeanwhile.body.error?.code).toBe('vault_unavailable')
    } finally {
      token.restore()
    }

    await expect
      .poll(async () => (await call(url, 'GET', '/health/ready')).status, { timeout: 15_000 })
      .toBe(200)
    const to = freshAddress()
    const sent = await call(url, 'POST', `/wallet/${wallet}/send`, { to, value: '0.1' })
    expect(sent.status).toBe(200)
    await expect
      .poll(
        async () =>
          (await call(url, 'GET', `/wallet/tx/${sent.body.transaction.id}`)).body.transaction?.status,
        {
          timeout: 30_000,
        },
      )
      .toBe('confirmed')
    expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(parseEther('0.1'))
    // The refused send left nothing behind that a tracker could sign later.
    const history = await call(url, 'GET', `/wallet/${wallet}/history`)
    expect(history.body.transactions.map((tx: { id: string }) => tx.id)).toEqual([sent.body.transaction.id])
    expect(await publicClientOf(devnet).getTransactionCount({ address: wallet })).toBe(1)
    expect(running.has(server)).toBe(true)
    const counters = await vaultCounters(url)
    console.info(`[pkcs11 serve, token removed and back] ${JSON.stringify(counters)}`)
    expect(counters.signatures).toBeGreaterThanOrEqual(1)
    await server.kill('SIGTERM')
  }, 180_000)
})

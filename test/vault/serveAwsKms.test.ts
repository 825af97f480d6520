import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, getAddress, type Hex, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshAddress, publicClientOf, startDevnet } from '../helpers/devnetAgentWallet.js'
import { type FakeAwsKms, startFakeAwsKms } from '../helpers/fakeAwsKms.js'
import { type FaultyRpcServer, faultyRpcServer } from '../helpers/faultyChain.js'
import { type CliProcess, callApi, startServer } from '../replicas/cliProcess.js'

const adminKey = `aw_kms_serve_admin_${'7'.repeat(32)}`
let devnet: Devnet
let rpc: FaultyRpcServer
let kms: FakeAwsKms
let dataDir: string
const running = new Set<CliProcess>()

beforeAll(async () => {
  devnet = await startDevnet()
  rpc = await faultyRpcServer(devnet.provider)
  kms = await startFakeAwsKms()
  dataDir = mkdtempSync(join(tmpdir(), 'aw-kms-serve-'))
})
afterAll(async () => {
  await Promise.all([...running].map((server) => server.kill('SIGKILL')))
  await kms?.close()
  await rpc?.close()
  await devnet?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

/** `agentwallet serve --vault aws-kms` on the fake AWS KMS; credentials only in the env, as in production. */
function serve(): Promise<{ server: CliProcess; url: string }> {
  const args = ['--port', '0', '--data-dir', dataDir, '--chain', `devnet=${rpc.url}`, '--vault', 'aws-kms']
  const env = {
    AGENTWALLET_ADMIN_KEY: adminKey,
    AGENTWALLET_LOG_LEVEL: 'warn',
    AGENTWALLET_AWS_KMS_ENDPOINT: kms.url,
    AWS_REGION: kms.region,
    AWS_ACCESS_KEY_ID: kms.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: kms.credentials.secretAccessKey,
    AWS_MAX_ATTEMPTS: '1',
  }
  return startServer(args, env, running)
}

const call = (url: string, method: string, path: string, body?: unknown) =>
  callApi(url, adminKey, method, path, body)

describe('agentwallet serve --vault aws-kms (fake AWS KMS)', () => {
  it('keeps wallet keys in KMS: sends, answers 503 vault_unavailable while KMS throttles, and signs again after a restart', async () => {
    const first = await serve()
    const created = await call(first.url, 'POST', '/wallet/create', { agentName: 'kms-serve' })
    expect(created.status).toBe(201)
    const wallet = created.body.wallet.address as Address
    expect(kms.calls.CreateKey).toBe(1)
    await devnet.faucet(wallet, parseEther('5'))
    const client = publicClientOf(devnet)

    const to = freshAddress()
    const sent = await call(first.url, 'POST', `/wallet/${wallet}/send`, { to, value: '0.5' })
    expect(sent.status).toBe(200)
    const receipt = await client.waitForTransactionReceipt({ hash: sent.body.transaction.hash as Hex })
    expect(getAddress(receipt.from)).toBe(wallet)
    expect(await client.getBalance({ address: to })).toBe(parseEther('0.5'))

    expect((await call(first.url, 'GET', '/health/ready')).status).toBe(200)
    kms.fault = 'throttle'
    try {
      // Readiness reuses a probe for a second: poll until it has probed the throttled KMS.
      await expect.poll(async () => (await call(first.url, 'GET', '/health/ready')).status).toBe(503)
      const ready = await call(first.url, 'GET', '/health/ready')
      expect(ready.body.vault).toMatchObject({
        name: 'aws-kms',
        reachable: false,
        error: 'vault_unavailable',
      })
      const refused = await call(first.url, 'POST', `/wallet/${wallet}/send`, { to, value: '0.1' })
      expect(refused.status).toBe(503)
      expect(refused.body.error.code).toBe('vault_unavailable')
    } finally {
      kms.fault = undefined
    }
    await expect.poll(async () => (await call(first.url, 'GET', '/health/ready')).status).toBe(200)

    // The address → KMS key mapping is in the data dir's SQLite: a new process signs with the same key.
    await first.server.kill('SIGTERM')
    const second = await serve()
    const again = await call(second.url, 'POST', `/wallet/${wallet}/send`, { to, value: '0.25' })
    expect(again.status).toBe(200)
    await client.waitForTransactionReceipt({ hash: again.body.transaction.hash as Hex })
    expect(await client.getBalance({ address: to })).toBe(parseEther('0.75'))
    expect(kms.calls.CreateKey).toBe(1)
    expect(kms.badSigV4).toBe(0)
  }, 180_000)
})

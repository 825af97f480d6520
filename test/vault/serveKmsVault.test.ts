import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, getAddress, type Hex, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshAddress, publicClientOf, startDevnet } from '../helpers/devnetAgentWallet.js'
import { type FakeAwsKms, startFakeAwsKms } from '../helpers/fakeAwsKms.js'
import { type FakeGcpKms, startFakeGcpKms } from '../helpers/fakeGcpKms.js'
import { type FaultyRpcServer, faultyRpcServer } from '../helpers/faultyChain.js'
import { type CliProcess, callApi, startServer } from '../replicas/cliProcess.js'

const adminKey = `aw_kms_serve_admin_${'7'.repeat(32)}`
let devnet: Devnet
let rpc: FaultyRpcServer
let kms: FakeAwsKms
let gcpKms: FakeGcpKms
let dataDir: string
const running = new Set<CliProcess>()

beforeAll(async () => {
  devnet = await startDevnet()
  rpc = await faultyRpcServer(devnet.provider)
  kms = await startFakeAwsKms()
  gcpKms = await startFakeGcpKms()
  dataDir = mkdtempSync(join(tmpdir(), 'aw-kms-serve-'))
})
afterAll(async () => {
  await Promise.all([...running].map((server) => server.kill('SIGKILL')))
  await kms?.close()
  await gcpKms?.close()
  await rpc?.close()
  await devnet?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

/** `agentwallet serve --vault aws-kms` on the fake AWS KMS; credentials only in the env, as in production. */
function serve(): Promise<{ server: CliProcess; url: string }> {
  const args = [
    '--port',
    '0',
    '--data-dir',
    join(dataDir, 'aws'),
    '--chain',
    `devnet=${rpc.url}`,
    '--vault',
    'aws-kms',
  ]
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

describe('agentwallet serve --vault gcp-kms (fake Cloud KMS over REST)', () => {
  it('authenticates with the service account key file, creates the wallet key in KMS and sends', async () => {
    const keyFile = join(dataDir, 'service-account.json')
    writeFileSync(keyFile, gcpKms.serviceAccount, { mode: 0o600 })
    const args = ['--port', '0', '--data-dir', join(dataDir, 'gcp'), '--chain', `devnet=${rpc.url}`]
    const { url } = await startServer(
      [...args, '--vault', 'gcp-kms'],
      {
        AGENTWALLET_ADMIN_KEY: adminKey,
        AGENTWALLET_LOG_LEVEL: 'warn',
        AGENTWALLET_GCP_KMS_KEY_RING: gcpKms.keyRing,
        AGENTWALLET_GCP_KMS_TRANSPORT: 'rest',
        AGENTWALLET_GCP_KMS_ENDPOINT: gcpKms.url,
        GOOGLE_APPLICATION_CREDENTIALS: keyFile,
      },
      running,
    )
    const call = (method: string, path: string, body?: unknown) => callApi(url, adminKey, method, path, body)

    const created = await call('POST', '/wallet/create', { agentName: 'gcp-serve' })
    expect(created.status).toBe(201)
    const wallet = created.body.wallet.address as Address
    expect(gcpKms.calls.CreateCryptoKey).toBe(1)
    // Signed with the key file's private key, checked by the fake with its public key.
    expect((gcpKms.calls.Token ?? 0) + (gcpKms.calls.SelfSignedJwt ?? 0)).toBeGreaterThanOrEqual(1)
    await devnet.faucet(wallet, parseEther('2'))
    const to = freshAddress()
    const sent = await call('POST', `/wallet/${wallet}/send`, { to, value: '0.5' })
    expect(sent.status).toBe(200)
    const client = publicClientOf(devnet)
    const receipt = await client.waitForTransactionReceipt({ hash: sent.body.transaction.hash as Hex })
    expect(getAddress(receipt.from)).toBe(wallet)
    expect(gcpKms.calls.AsymmetricSign).toBeGreaterThanOrEqual(1)
    expect((await call('GET', '/health/ready')).body.vault).toMatchObject({
      name: 'gcp-kms',
      reachable: true,
    })
  }, 180_000)
})

import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createAgentWallet, rotateMasterKey } from '@agentwallet/core'
import { devnetAccounts } from '@agentwallet/devnet'
import { postgresStorage } from '@agentwallet/postgres'
import { afterAll, expect, it } from 'vitest'
import { cliEntry } from '../../../test/helpers/cliBundle.js'
import { testSchemas, testUrl } from '../../postgres/test/testDatabase.js'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), 'agentwallet-rotate-'))
const children: ChildProcess[] = []
const adminKey = 'aw_fixed_admin_key_for_rotation_test_01234'
const funded = devnetAccounts[9]!

/** Runs the CLI (bundled from source, `cliEntry`), collecting output until `until` matches or it exits. */
function run(args: string[], env: Record<string, string> = {}, until?: RegExp) {
  const child = spawn(process.execPath, [cliEntry(), ...args], {
    cwd: root,
    env: { ...process.env, AGENTWALLET_MASTER_KEY: '', AGENTWALLET_NEW_MASTER_KEY: '', ...env },
  })
  children.push(child)
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk) => (out += chunk))
  child.stderr.on('data', (chunk) => (err += chunk))
  return new Promise<{ out: string; err: string; code: number | null; child: ChildProcess }>((resolve) => {
    const check = () => until?.test(out) && resolve({ out, err, code: null, child })
    child.stdout.on('data', check)
    child.on('exit', (code) => resolve({ out, err, code, child }))
  })
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
}

const serve = (env: Record<string, string> = {}) =>
  run(
    ['serve', '--port', '0', '--data-dir', dataDir],
    { AGENTWALLET_ADMIN_KEY: adminKey, AGENTWALLET_ALLOW_PRIVATE_WEBHOOKS: '127.0.0.0/8,::1/128', ...env },
    /wallet\/list\n/,
  )

/** The fields of the answers this test reads. */
type Body = {
  wallet: { address: string }
  wallets: { address: string }[]
  eth: string
  hash: string
  status: string
}

function api(url: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { 'x-api-key': adminKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as Body }
  }
}

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  rmSync(dataDir, { recursive: true, force: true })
})

it('rotate-master-key on a SQLite data dir: refused while serve runs; after it, serve runs with the new key and old wallets still sign', async () => {
  const first = await serve()
  const call = api(/listening on (http:\/\/\S+)/.exec(first.out)![1]!)
  const imported = await call('POST', '/wallet/import', {
    privateKey: funded.privateKey,
    agentName: 'funded',
  })
  expect(imported.status).toBe(201)
  const created = await call('POST', '/wallet/create', { agentName: 'fresh' })
  expect(created.status).toBe(201)
  const fresh = created.body.wallet.address
  const hook = await call('POST', '/webhooks/subscribe', { url: 'http://127.0.0.1:9/hook', events: ['*'] })
  expect(hook.status).toBe(201)
  const oldKey = readFileSync(join(dataDir, 'master.key'), 'utf8').trim()

  // The data dir is held by the server: the rotation cannot start, and writes no key file.
  const busy = await run(['rotate-master-key', '--data-dir', dataDir])
  expect(busy.code).toBe(1)
  expect(busy.err).toContain(`in use by process ${first.child.pid}`)
  expect(existsSync(join(dataDir, 'master.key.new'))).toBe(false)
  await stop(first.child)

  const rotated = await run(['rotate-master-key', '--data-dir', dataDir])
  expect(rotated.err).toBe('')
  expect(rotated.code).toBe(0)
  expect(rotated.out).toMatch(/wallet keys: +2 re-sealed, 0 skipped/)
  expect(rotated.out).toMatch(/webhook secrets: +1 re-sealed, 0 skipped/)
  const newKey = readFileSync(join(dataDir, 'master.key'), 'utf8').trim()
  expect(newKey).toMatch(/^[0-9a-f]{64}$/)
  expect(newKey).not.toBe(oldKey)
  expect(statSync(join(dataDir, 'master.key')).mode & 0o777).toBe(0o600)
  const retired = readdirSync(dataDir).filter((name) => name.startsWith('master.key.retired-'))
  expect(retired).toHaveLength(1)
  expect(readFileSync(join(dataDir, retired[0]!), 'utf8').trim()).toBe(oldKey)
  expect(existsSync(join(dataDir, 'master.key.new'))).toBe(false)
  for (const secret of [oldKey, newKey]) expect(rotated.out + rotated.err).not.toContain(secret)

  // The retired key no longer opens the store.
  const stale = await run(['serve', '--port', '0', '--data-dir', dataDir], { AGENTWALLET_MASTER_KEY: oldKey })
  expect(stale.code).toBe(1)
  expect(stale.err).toMatch(/master_key_mismatch/)
  expect(stale.err).not.toContain(oldKey)

  const second = await serve()
  try {
    const again = api(/listening on (http:\/\/\S+)/.exec(second.out)![1]!)
    const listed = await again('GET', '/wallet/list')
    expect(listed.body.wallets.map((w) => w.address).sort()).toEqual([funded.address, fresh].sort())
    expect((await again('GET', `/wallet/${fresh}/balance`)).body.eth).toBe('0')
    // The imported key and the created one, both sealed under the old key, sign under the new one.
    await confirmed(again, await again('POST', `/wallet/${funded.address}/send`, { to: fresh, value: '0.1' }))
    await confirmed(
      again,
      await again('POST', `/wallet/${fresh}/send`, { to: funded.address, value: '0.01' }),
    )
    expect(Number((await again('GET', `/wallet/${fresh}/balance`)).body.eth)).toBeGreaterThan(0.08)
  } finally {
    await stop(second.child)
  }
}, 180_000)

async function confirmed(call: ReturnType<typeof api>, sent: { status: number; body: Body }) {
  expect(sent.status).toBe(200)
  const { hash } = sent.body
  for (let i = 0; i < 400; i++) {
    const { body } = await call('GET', `/wallet/tx/${hash}`)
    if (body.status === 'confirmed') return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`tx ${hash} never confirmed`)
}

it('rotate-master-key --storage postgres: keys from AGENTWALLET_MASTER_KEY and AGENTWALLET_NEW_MASTER_KEY, counts printed, a wrong old key refused', async () => {
  const schemas = testSchemas()
  const schema = schemas.next()
  const oldKey = '5e'.repeat(32)
  const newKey = '6f'.repeat(32)
  const flags = [
    'rotate-master-key',
    '--storage',
    'postgres',
    '--database-url',
    testUrl,
    '--database-schema',
    schema,
  ]
  const storage = await postgresStorage({ connectionString: testUrl, schema })
  try {
    const chains = { devnet: { rpcUrl: 'http://127.0.0.1:9', chainId: 31337 } }
    const aw = await createAgentWallet({ chains, storage, masterKey: oldKey, track: false })
    const { wallet } = await aw.createWallet({ agentName: 'pg' })
    await aw.close()

    const wrong = await run(flags, {
      AGENTWALLET_MASTER_KEY: '7a'.repeat(32),
      AGENTWALLET_NEW_MASTER_KEY: newKey,
    })
    expect(wrong.code).toBe(1)
    expect(wrong.err).toMatch(/master_key_mismatch: 1 record\(s\) are sealed under neither/)
    const rotated = await run(flags, { AGENTWALLET_MASTER_KEY: oldKey, AGENTWALLET_NEW_MASTER_KEY: newKey })
    expect(rotated.err).toBe('')
    expect(rotated.code).toBe(0)
    expect(rotated.out).toMatch(/wallet keys: +1 re-sealed, 0 skipped/)
    for (const secret of [oldKey, newKey]) expect(rotated.out).not.toContain(secret)

    await expect(
      createAgentWallet({ chains, storage, masterKey: oldKey, track: false }),
    ).rejects.toMatchObject({
      code: 'master_key_mismatch',
    })
    const reopened = await createAgentWallet({ chains, storage, masterKey: newKey, track: false })
    try {
      const signer = await reopened.context.vault.getSigner(wallet.address)
      await expect(signer.signMessage({ message: 'rotated' })).resolves.toMatch(/^0x/)
    } finally {
      await reopened.close()
    }
    // Nothing left to move: running it again is harmless.
    expect(await rotateMasterKey(storage, { from: oldKey, to: newKey })).toMatchObject({
      walletKeys: { resealed: 0, skipped: 1 },
    })
  } finally {
    await storage.close()
    await schemas.cleanup()
  }
}, 60_000)

import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const main = join(root, 'packages/koa/src/cli/main.ts')
const dataDir = mkdtempSync(join(tmpdir(), 'agentwallet-cli-'))
const children: ChildProcess[] = []

/** Runs the CLI from source (tsx), collecting output until `until` matches or it exits. */
function run(args: string[], env: Record<string, string> = {}, until?: RegExp) {
  const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
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

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
  rmSync(dataDir, { recursive: true, force: true })
})

it('serve: prints the admin key once, writes it 0600, and the printed curl works; restarts keep state', async () => {
  const first = await run(['serve', '--port', '0', '--data-dir', dataDir], {}, /wallet\/list\n/)
  const key = /Root admin API key[^\n]*\n\s+(aw_\S+)/.exec(first.out)?.[1]
  expect(key).toBeDefined()
  expect(readFileSync(join(dataDir, 'admin.key'), 'utf8').trim()).toBe(key)
  expect(statSync(join(dataDir, 'admin.key')).mode & 0o777).toBe(0o600)
  expect(statSync(join(dataDir, 'master.key')).mode & 0o777).toBe(0o600)
  const url = /listening on (http:\/\/\S+)/.exec(first.out)![1]!
  const curl =
    /curl -s -H "X-API-Key: (\S+)" -H "content-type: application\/json" -d '(\{[^']+\})' (\S+)/.exec(
      first.out,
    )!
  const created = await fetch(curl[3]!, {
    method: 'POST',
    headers: { 'x-api-key': curl[1]!, 'content-type': 'application/json' },
    body: curl[2],
  })
  expect(created.status).toBe(201)
  const { wallet } = (await created.json()) as { wallet: { address: string } }

  const busy = await run(['serve', '--port', new URL(url).port, '--data-dir', join(dataDir, 'other')])
  expect(busy.code).toBe(1)
  expect(busy.err).toMatch(/already in use/)
  expect(busy.err).not.toMatch(/\n\s+at /)

  first.child.kill('SIGTERM')
  await new Promise((resolve) => first.child.once('exit', resolve))
  const second = await run(['serve', '--port', '0', '--data-dir', dataDir], {}, /wallet\/list\n/)
  expect(second.out).not.toContain(key)
  const url2 = /listening on (http:\/\/\S+)/.exec(second.out)![1]!
  const list = (await (await fetch(`${url2}/wallet/list`, { headers: { 'x-api-key': key! } })).json()) as {
    wallets: { address: string }[]
  }
  expect(list.wallets.map((w) => w.address)).toEqual([wallet.address])
  second.child.kill('SIGTERM')
  await new Promise((resolve) => second.child.once('exit', resolve))
}, 120_000)

it('AGENTWALLET_ADMIN_KEY fixes the admin key (memory storage)', async () => {
  const adminKey = 'aw_fixed_admin_key_for_scripts_0123456789'
  const started = await run(
    ['serve', '--port', '0', '--storage', 'memory', '--data-dir', join(dataDir, 'mem')],
    { AGENTWALLET_ADMIN_KEY: adminKey },
    /wallet\/list\n/,
  )
  expect(started.out).not.toContain(adminKey)
  const url = /listening on (http:\/\/\S+)/.exec(started.out)![1]!
  expect((await fetch(`${url}/api-keys`, { headers: { 'x-api-key': adminKey } })).status).toBe(200)
  started.child.kill('SIGTERM')
}, 60_000)

it('AGENTWALLET_0X_API_KEY adds a 0x Swap API source to swaps (AGENTWALLET_0X_URL points it elsewhere)', async () => {
  // A stand-in aggregator that records what it is asked and has no liquidity.
  const asked: { path: string; key: string | undefined }[] = []
  const aggregator = createServer((request, response) => {
    asked.push({
      path: new URL(request.url ?? '/', 'http://x').pathname,
      key: request.headers['0x-api-key'] as string,
    })
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"liquidityAvailable":false}')
  })
  await new Promise<void>((resolve) => aggregator.listen(0, '127.0.0.1', resolve))
  const adminKey = 'aw_fixed_admin_key_for_aggregator_test_0123'
  const started = await run(
    ['serve', '--port', '0', '--storage', 'memory', '--data-dir', join(dataDir, 'zeroex')],
    {
      AGENTWALLET_ADMIN_KEY: adminKey,
      AGENTWALLET_0X_API_KEY: 'zx-cli-key',
      AGENTWALLET_0X_URL: `http://127.0.0.1:${(aggregator.address() as AddressInfo).port}`,
    },
    /wallet\/list\n/,
  )
  try {
    expect(started.out).not.toContain('zx-cli-key')
    const url = /listening on (http:\/\/\S+)/.exec(started.out)![1]!
    const quote = await fetch(`${url}/defi/quote?fromToken=ETH&toToken=USDC&amount=1`, {
      headers: { 'x-api-key': adminKey },
    })
    expect(quote.status).toBe(200)
    expect(((await quote.json()) as { quotes: unknown[] }).quotes.length).toBeGreaterThan(0)
    expect(asked).toEqual([{ path: '/swap/allowance-holder/price', key: 'zx-cli-key' }])
  } finally {
    started.child.kill('SIGTERM')
    await new Promise<void>((resolve) => aggregator.close(() => resolve()))
  }
}, 60_000)

it('AGENTWALLET_RATE_LIMIT sets the per-key limit ("<burst>/<per second>"), and refuses nonsense', async () => {
  const adminKey = 'aw_fixed_admin_key_for_rate_limit_test_0123'
  const started = await run(
    ['serve', '--port', '0', '--storage', 'memory', '--data-dir', join(dataDir, 'limited')],
    { AGENTWALLET_ADMIN_KEY: adminKey, AGENTWALLET_RATE_LIMIT: '3/0.1' },
    /wallet\/list\n/,
  )
  try {
    const url = /listening on (http:\/\/\S+)/.exec(started.out)![1]!
    const statuses = []
    for (let i = 0; i < 4; i++)
      statuses.push((await fetch(`${url}/wallet/list`, { headers: { 'x-api-key': adminKey } })).status)
    expect(statuses).toEqual([200, 200, 200, 429])
  } finally {
    started.child.kill('SIGTERM')
  }
  const bad = await run(['serve', '--port', '0', '--storage', 'memory'], { AGENTWALLET_RATE_LIMIT: 'fast' })
  expect(bad.code).toBe(1)
  expect(bad.err).toMatch(/AGENTWALLET_RATE_LIMIT must be "<burst>\/<per second>"/)
}, 60_000)

it('AGENTWALLET_METRICS_TOKEN serves /metrics to that bearer token only, and refuses a short token', async () => {
  const token = 'cli_metrics_token_0123456789abcdef'
  const started = await run(
    ['serve', '--port', '0', '--storage', 'memory', '--data-dir', join(dataDir, 'metrics')],
    { AGENTWALLET_METRICS_TOKEN: token },
    /Metrics: .*\n/,
  )
  try {
    const url = /listening on (http:\/\/\S+)/.exec(started.out)![1]!
    expect(started.out).toContain(`${url}/metrics (Authorization: Bearer $AGENTWALLET_METRICS_TOKEN)`)
    expect(started.out).not.toContain(token)
    const scraped = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })
    expect(scraped.status).toBe(200)
    expect(await scraped.text()).toMatch(/^agentwallet_transactions\{chain="devnet",status="confirmed"\} 0$/m)
    const refused = await fetch(`${url}/metrics`)
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ error: { code: 'unauthorized' } })
  } finally {
    started.child.kill('SIGTERM')
  }
  const bad = await run(['serve', '--port', '0', '--storage', 'memory'], {
    AGENTWALLET_METRICS_TOKEN: 'short',
  })
  expect(bad.code).toBe(1)
  expect(bad.err).toMatch(/AGENTWALLET_METRICS_TOKEN must be 16 or more characters/)
}, 60_000)

it('keys create|list|revoke on the data dir; clear errors for bad flags', async () => {
  const created = await run(['keys', 'create', '--name', 'bot', '--role', 'agent', '--data-dir', dataDir])
  expect(created.code).toBe(0)
  const id = /key (key_\w+)/.exec(created.out)![1]!
  expect((await run(['keys', 'list', '--data-dir', dataDir])).out).toContain(id)
  expect((await run(['keys', 'revoke', id, '--data-dir', dataDir])).out).toContain(`Revoked ${id}`)
  const bad = await run(['serve', '--port', 'eighty'])
  expect(bad.code).toBe(1)
  expect(bad.err).toBe('agentwallet: Invalid port "eighty" (0-65535)\n')
  const badChain = await run(['serve', '--chain', 'nope'])
  expect(badChain.err).toMatch(/--chain expects name=rpcUrl/)
}, 120_000)

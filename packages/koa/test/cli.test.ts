import { type ChildProcess, spawn } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { devnetAccounts } from '@agentwallet/devnet'
import { afterAll, expect, it } from 'vitest'
import { startBlockaidApi } from '../../../test/helpers/blockaidApi.js'
import { cliEntry } from '../../../test/helpers/cliBundle.js'
import { ensureDashboardBuilt } from '../../dashboard/test/helpers/buildDashboard.js'
import { commandHelp } from '../src/cli/commandHelp.js'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), 'agentwallet-cli-'))
const children: ChildProcess[] = []

/**
 * How long one CLI process may take to print what a test awaits, or to exit: it loads the CLI and
 * its packages first, which takes a second or two on an idle machine and much more on a busy one. A test's own
 * bound is `startBound` for each process it starts plus a minute for the rest, so a slow start fails
 * in `run`, named, rather than as an anonymous test timeout.
 */
const startBound = 90_000
const bound = (processes: number) => processes * startBound + 60_000

/**
 * Runs the CLI (bundled from source, `cliEntry`), collecting output until `until` matches or it exits; rejects,
 * naming the command and what it awaited, if neither happened within `startBound`.
 */
function run(
  args: string[],
  env: Record<string, string> = {},
  until?: RegExp,
  /** Commands to exec the CLI through, e.g. one that drops a capability. */
  through: string[] = [],
) {
  const [command, ...prefix] = [...through, process.execPath]
  const child = spawn(command!, [...prefix, cliEntry(), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  })
  children.push(child)
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk) => (out += chunk))
  child.stderr.on('data', (chunk) => (err += chunk))
  // `output()`: everything written so far, also after the promise resolved.
  const output = () => out + err
  return new Promise<{
    out: string
    err: string
    code: number | null
    child: ChildProcess
    output: () => string
  }>((resolve, reject) => {
    const timer = setTimeout(() => {
      const awaited = until ? `stdout to match ${until}` : 'it to exit'
      reject(
        new Error(
          `agentwallet ${args.join(' ')}: waited ${startBound} ms for ${awaited}; output: ${output()}`,
        ),
      )
    }, startBound)
    const done = (code: number | null) => {
      clearTimeout(timer)
      resolve({ out, err, code, child, output })
    }
    child.stdout.on('data', () => until?.test(out) && done(null))
    child.on('exit', (code) => done(code))
  })
}

async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill(signal)
  await new Promise((resolve) => child.once('exit', resolve))
}

const urlOf = (out: string) => /listening on (http:\/\/\S+)/.exec(out)![1]!
const printedKey = (out: string) => /Root admin API key[^\n]*\n\s+(aw_\S+)/.exec(out)?.[1]
const statusWith = async (url: string, key: string | undefined) =>
  (await fetch(`${url}/api-keys`, { headers: { 'x-api-key': key ?? '' } })).status

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
  rmSync(dataDir, { recursive: true, force: true })
})

it(
  'serve: prints the admin key once, writes it 0600, and the printed curl works; restarts keep state',
  async () => {
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
  },
  bound(3),
)

it(
  'AGENTWALLET_ADMIN_KEY fixes the admin key (memory storage)',
  async () => {
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
  },
  bound(1),
)

it(
  'AGENTWALLET_0X_API_KEY adds a 0x Swap API source to swaps (AGENTWALLET_0X_URL points it elsewhere)',
  async () => {
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
  },
  bound(1),
)

it(
  'AGENTWALLET_BLOCKAID_API_KEY adds Blockaid as a screening source: a send to a malicious address is refused before signing',
  async () => {
    const blockaid = await startBlockaidApi()
    const drainer = '0x8576aCC5C05D6Ce88f4e49bf65BdF0C62F91353C'
    blockaid.addresses.set(drainer.toLowerCase(), 'Malicious')
    const adminKey = 'aw_fixed_admin_key_for_blockaid_test_0123'
    const started = await run(
      ['serve', '--port', '0', '--storage', 'memory', '--data-dir', join(dataDir, 'blockaid')],
      {
        AGENTWALLET_ADMIN_KEY: adminKey,
        AGENTWALLET_BLOCKAID_API_KEY: blockaid.apiKey,
        AGENTWALLET_BLOCKAID_URL: blockaid.url,
        // The devnet screened as Ethereum (Blockaid knows no chain 31337: unmapped, it is an outage).
        AGENTWALLET_BLOCKAID_CHAINS: '31337=ethereum',
      },
      /wallet\/list\n/,
    )
    try {
      expect(started.out).not.toContain(blockaid.apiKey)
      const url = /listening on (http:\/\/\S+)/.exec(started.out)![1]!
      const post = (path: string, body: unknown) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'x-api-key': adminKey, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      const created = await post('/wallet/create', { agentName: 'screened' })
      const { address } = ((await created.json()) as { wallet: { address: string } }).wallet
      expect((await post('/devnet/faucet', { address, amount: '1' })).status).toBe(200)
      const rules = [{ type: 'screen_counterparties', sources: ['blockaid'] }]
      expect((await post('/policy/update', { rules })).status).toBe(200)

      const refused = await post(`/wallet/${address}/send`, { to: drainer, value: '0.1' })
      expect(refused.status).toBe(403)
      expect(await refused.json()).toMatchObject({
        error: { code: 'policy_blocked', details: { ruleType: 'screen_counterparties', source: 'blockaid' } },
      })
      expect(blockaid.requests).toContain('/v0/evm/address/scan')
      const clean = await post(`/wallet/${address}/send`, {
        to: devnetAccounts[3]!.address,
        value: '0.1',
      })
      expect(clean.status).toBe(200)
    } finally {
      started.child.kill('SIGTERM')
      await blockaid.close()
    }
  },
  bound(1),
)

it(
  'AGENTWALLET_RATE_LIMIT sets the per-key limit ("<burst>/<per second>"), and refuses nonsense',
  async () => {
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
  },
  bound(2),
)

it(
  'AGENTWALLET_METRICS_TOKEN serves /metrics to that bearer token only, and refuses a short token',
  async () => {
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
      expect(await scraped.text()).toMatch(
        /^agentwallet_transactions\{chain="devnet",status="confirmed"\} 0$/m,
      )
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
  },
  bound(2),
)

it(
  'AGENTWALLET_ALLOW_PRIVATE_WEBHOOKS takes CIDRs; the old "true" and a bad range stop the start',
  async () => {
    for (const value of ['true', '127.0.0.0/8,localhost', '10.0.0.0/33']) {
      const refused = await run(
        ['serve', '--port', '0', '--storage', 'memory', '--data-dir', join(dataDir, 'private-hooks')],
        { AGENTWALLET_ALLOW_PRIVATE_WEBHOOKS: value },
        /wallet\/list\n/,
      )
      expect(refused.code, value).toBe(1)
      // The operator is told the new form.
      expect(refused.err, value).toContain('127.0.0.0/8,::1/128')
    }
  },
  bound(3),
)

it(
  'keys create|list|revoke on the data dir; clear errors for bad flags',
  async () => {
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
  },
  bound(5),
)

it(
  'one process holds a data dir (keys and faucet go through its API instead): a memory serve beside a SQLite serve is refused, admin.key untouched; a SIGKILLed holder blocks nothing',
  async () => {
    const dir = join(dataDir, 'held')
    const holder = await run(['serve', '--port', '0', '--data-dir', dir], {}, /wallet\/list\n/)
    const adminKey = readFileSync(join(dir, 'admin.key'), 'utf8')
    try {
      for (const args of [
        ['serve', '--port', '0', '--storage', 'memory'],
        ['devnet', '--port', '0'],
      ]) {
        const refused = await run([...args, '--data-dir', dir], {}, /wallet\/list\n|on http/)
        expect(refused.code).toBe(1)
        // The operator learns which dir and which process.
        expect(refused.err).toContain(dir)
        expect(refused.err).toContain(`process ${holder.child.pid}`)
        expect(refused.err).not.toMatch(/\n\s+at /)
      }
      expect(readFileSync(join(dir, 'admin.key'), 'utf8')).toBe(adminKey)
    } finally {
      await stop(holder.child, 'SIGKILL')
    }
    const memory = await run(
      ['serve', '--port', '0', '--storage', 'memory', '--data-dir', dir],
      {},
      /wallet\/list\n/,
    )
    await stop(memory.child)
    expect(memory.code).toBeNull()
    expect(readFileSync(join(dir, 'admin.key'), 'utf8')).toBe(adminKey)
    const again = await run(['serve', '--port', '0', '--data-dir', dir], {}, /wallet\/list\n/)
    try {
      expect(await statusWith(urlOf(again.out), adminKey.trim())).toBe(200)
    } finally {
      await stop(again.child)
    }
  },
  bound(5),
)

it(
  '--storage memory writes no secret to disk: the root key is printed once, no admin.key or master.key, no data dir created',
  async () => {
    const existing = join(dataDir, 'memory-only')
    mkdirSync(existing)
    const missing = join(dataDir, 'memory-never')
    for (const dir of [existing, missing]) {
      const started = await run(
        ['serve', '--port', '0', '--storage', 'memory', '--data-dir', dir],
        {},
        /wallet\/list\n/,
      )
      try {
        expect(await statusWith(urlOf(started.out), printedKey(started.out))).toBe(200)
      } finally {
        await stop(started.child)
      }
    }
    // Only the lock (a pid and a command, nothing secret) in a dir that existed; none made up.
    expect(readdirSync(existing)).toEqual(['agentwallet.lock'])
    expect(existsSync(missing)).toBe(false)
  },
  bound(2),
)

it(
  'a new AGENTWALLET_ADMIN_KEY replaces the root key and revokes the one before (generated or set); a replaced value never comes back',
  async () => {
    const dir = join(dataDir, 'root-key')
    const serve = (adminKey?: string) =>
      run(
        ['serve', '--port', '0', '--data-dir', dir],
        adminKey ? { AGENTWALLET_ADMIN_KEY: adminKey } : {},
        /wallet\/list\n/,
      )
    const first = await serve()
    const generated = printedKey(first.out)!
    await stop(first.child)
    let previous = generated
    for (const value of [
      'aw_root_key_from_env_one_0123456789abcdef',
      'aw_root_key_from_env_two_0123456789abcdef',
    ]) {
      const started = await serve(value)
      try {
        const url = urlOf(started.out)
        expect(await statusWith(url, previous)).toBe(401)
        expect(await statusWith(url, value)).toBe(200)
        const listed = (await (
          await fetch(`${url}/api-keys`, { headers: { 'x-api-key': value } })
        ).json()) as {
          apiKeys: { id: string; root?: boolean; revokedAt?: string }[]
        }
        const active = listed.apiKeys.filter((k) => k.root && !k.revokedAt)
        expect(active).toHaveLength(1)
        await stop(started.child)
        // The log says which key went, and holds neither value.
        const logged = started
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as { revoked?: string[]; keyId?: string })
          .find((line) => line.revoked)
        expect(logged).toMatchObject({ keyId: active[0]!.id, revoked: [expect.stringMatching(/^key_/)] })
        expect(listed.apiKeys.find((k) => k.id === logged!.revoked![0])?.revokedAt).toBeDefined()
        expect(started.output()).not.toContain(value)
        expect(started.output()).not.toContain(previous)
      } finally {
        await stop(started.child)
      }
      // admin.key held the generated key: revoked, so the file is gone.
      expect(existsSync(join(dir, 'admin.key'))).toBe(false)
      previous = value
    }
    const rollback = await serve('aw_root_key_from_env_one_0123456789abcdef')
    expect(rollback.code).toBe(1)
    expect(rollback.output()).not.toContain('aw_root_key_from_env_one_0123456789abcdef')
  },
  bound(3),
)

it(
  'serve: a devnet transaction’s explorer is the dashboard’s page at the public URL; readiness and URL settings are checked',
  async () => {
    ensureDashboardBuilt()
    const adminKey = 'aw_cli_explorer_admin_key_0123456789abcdef'
    const sendFromDevnetAccount = async (url: string) => {
      const headers = { 'x-api-key': adminKey, 'content-type': 'application/json' }
      const imported = await fetch(`${url}/wallet/import`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ privateKey: devnetAccounts[0]!.privateKey, agentName: 'funded' }),
      })
      const { wallet } = (await imported.json()) as { wallet: { address: string } }
      const sent = await fetch(`${url}/wallet/${wallet.address}/send`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ to: devnetAccounts[1]!.address, value: '0.01' }),
      })
      return ((await sent.json()) as { transaction: { hash: string; explorer: string | null } }).transaction
    }
    for (const publicUrl of [undefined, 'https://wallet.example.com/']) {
      const started = await run(
        ['serve', '--port', '0', '--storage', 'memory', '--data-dir', join(dataDir, 'explorer')],
        { AGENTWALLET_ADMIN_KEY: adminKey, ...(publicUrl ? { AGENTWALLET_PUBLIC_URL: publicUrl } : {}) },
        /Dashboard: .*\n/,
      )
      try {
        const url = urlOf(started.out)
        const base = publicUrl ? 'https://wallet.example.com' : url
        expect(started.out).toContain(`Dashboard: ${base}/dashboard/`)
        const transaction = await sendFromDevnetAccount(url)
        expect(transaction.explorer).toBe(`${base}/dashboard/#/tx/${transaction.hash}`)
        expect((await fetch(`${url}/health/ready`)).status).toBe(200)
      } finally {
        await stop(started.child)
      }
    }
    const unknownChain = await run(['serve', '--port', '0', '--storage', 'memory'], {
      AGENTWALLET_READY_CHAINS: 'mainnet',
    })
    expect(unknownChain.code).toBe(1)
    expect(unknownChain.err).toContain('not configured: mainnet')
    const badUrl = await run(['serve', '--public-url', 'ftp://wallet.example.com'])
    expect(badUrl.code).toBe(1)
    expect(badUrl.err).toMatch(/--public-url must be an absolute http\(s\) URL/)
  },
  bound(4),
)

it(
  'each command has its own help, --version prints the version, and a bad --log-level is refused before any dir is made',
  async () => {
    const version = JSON.parse(readFileSync(join(root, 'packages/koa/package.json'), 'utf8')).version
    expect((await run(['--version'])).out).toBe(`${version}\n`)
    // Every command's text names it; two are read through the real CLI (flag and `help <command>`).
    for (const [command, text] of Object.entries(commandHelp))
      expect(text, command).toMatch(
        new RegExp(`^Usage: (AGENTWALLET_API_KEY=<agent key> )?agentwallet ${command}`),
      )
    const [keysHelp, faucetHelp] = await Promise.all([run(['keys', '--help']), run(['help', 'faucet'])])
    expect(keysHelp.out).toBe(`${commandHelp.keys}\n`)
    expect(faucetHelp.out).toBe(`${commandHelp.faucet}\n`)
    const dir = join(dataDir, 'never-made')
    const loud = await run(['serve', '--log-level', 'loud', '--data-dir', dir])
    expect(loud.code).toBe(1)
    expect(loud.err).toBe(
      'agentwallet: --log-level must be one of fatal, error, warn, info, debug, trace, silent, not "loud"\n',
    )
    expect(existsSync(dir)).toBe(false)
  },
  bound(4),
)

it(
  'keys create/list and faucet work while the server runs (through its API); one log line at shutdown',
  async () => {
    const dir = join(dataDir, 'beside')
    const server = await run(['serve', '--port', '0', '--data-dir', dir], {}, /wallet\/list\n/)
    const url = urlOf(server.out)
    const adminKey = printedKey(server.out)!
    const created = await run([
      'keys',
      'create',
      '--name',
      'beside-bot',
      '--role',
      'agent',
      '--data-dir',
      dir,
    ])
    expect(created.code, created.err).toBe(0)
    const agentKey = created.out.trim().split('\n').at(-1)!
    const id = /key (key_\w+)/.exec(created.out)![1]!
    // The key the CLI made works on the server at once: it went through the server, not beside it.
    expect((await fetch(`${url}/api-keys/me`, { headers: { 'x-api-key': agentKey } })).status).toBe(200)
    expect((await run(['keys', 'list', '--data-dir', dir])).out).toContain(id)

    const wallet = await fetch(`${url}/wallet/create`, {
      method: 'POST',
      headers: { 'x-api-key': adminKey, 'content-type': 'application/json' },
      body: JSON.stringify({ agentName: 'funded' }),
    })
    const { address } = ((await wallet.json()) as { wallet: { address: string } }).wallet
    const funded = await run(['faucet', address, '2.5', '--data-dir', dir])
    expect(funded.code, funded.err).toBe(0)
    expect(funded.out).toContain(`Added 2.5 ETH to ${address} on devnet`)
    const balance = await fetch(`${url}/wallet/${address}/balance`, { headers: { 'x-api-key': adminKey } })
    expect(((await balance.json()) as { eth: string }).eth).toBe('2.5')
    const tooMuch = await run(['faucet', address, '101', '--data-dir', dir])
    expect(tooMuch.code).toBe(1)
    expect(tooMuch.err).toMatch(/^agentwallet: validation_failed: .*100 ETH/)

    await stop(server.child)
    const lines = server.output().trim().split('\n')
    expect(lines.filter((line) => line.includes('"msg":"server stopped"'))).toHaveLength(1)
    expect(lines.at(-1)).toContain('"msg":"server stopped"')
    const offline = await run(['faucet', address, '--data-dir', dir])
    expect(offline.code).toBe(1)
    expect(offline.err).toContain('faucet needs a running server')
  },
  bound(6),
)

it(
  'a data dir this user may not write: the error names the path and says it is a permissions problem',
  async () => {
    const parent = mkdtempSync(join(tmpdir(), 'agentwallet-denied-'))
    chmodSync(parent, 0o755)
    const locked = join(parent, 'locked')
    mkdirSync(locked, { mode: 0o555 })
    // root may write anywhere: run it without the capabilities that let it (util-linux's setpriv).
    // Still root, it reads the checkout however its dirs are shared, which another user might not.
    const through =
      process.getuid?.() === 0 ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--'] : []
    const denied = await run(['keys', 'list', '--data-dir', join(locked, 'data')], {}, undefined, through)
    rmSync(parent, { recursive: true, force: true })
    expect(denied.code).toBe(1)
    expect(denied.err).toContain(join(locked, 'data'))
    expect(denied.err).toContain('a permissions problem')
    expect(denied.err).not.toMatch(/\n\s+at /)
    // An SQLite file that cannot be opened (here a directory in its place) is named the same way.
    const cantOpen = join(dataDir, 'cantopen')
    mkdirSync(join(cantOpen, 'agentwallet.db'), { recursive: true })
    const sqlite = await run(['keys', 'list', '--data-dir', cantOpen])
    expect(sqlite.code).toBe(1)
    expect(sqlite.err).toContain(join(cantOpen, 'agentwallet.db'))
    expect(sqlite.err).toContain('SQLITE_CANTOPEN')
    expect(sqlite.err).toContain('a permissions problem')
  },
  bound(2),
)

it(
  'a server.json that no lock holder wrote (a server killed with -9) is ignored: the admin key is sent nowhere',
  async () => {
    const dir = join(dataDir, 'stale')
    mkdirSync(dir)
    const seen: string[] = []
    const impostor = createServer((request, response) => {
      seen.push(`${request.method} ${request.url} key=${request.headers['x-api-key'] ?? ''}`)
      response.end('{"success":true}')
    })
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve))
    const { port } = impostor.address() as AddressInfo
    writeFileSync(
      join(dir, 'server.json'),
      JSON.stringify({ url: `http://127.0.0.1:${port}`, pid: process.pid }),
    )
    writeFileSync(join(dir, 'admin.key'), 'aw_not_for_the_impostor\n')
    try {
      const listed = await run(['keys', 'list', '--data-dir', dir])
      expect(listed.code, listed.err).toBe(0)
      expect(listed.out).toBe('No keys in tenant default\n')
      const faucet = await run(['faucet', devnetAccounts[1]!.address, '--data-dir', dir])
      expect(faucet.err).toContain('faucet needs a running server')
      expect(seen).toEqual([])
    } finally {
      await new Promise((resolve) => impostor.close(resolve))
    }
  },
  bound(2),
)

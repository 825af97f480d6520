/**
 * Where a send's CPU goes: `node --import tsx bench/profileSend.ts [--mode http|inprocess] [--count 600]
 * [--out dir] [--sql] [--stacks <sql>] [--synchronous normal] [--heap]`. Starts the bench server (`startBenchServer`: SQLite, sealed vault, effects and audit
 * trail on, the in-process devnet), funds 10 wallets, warms up, then in one process and in turns:
 * raw viem sending `count` in a row from one account, and `count` sends through AgentWallet (20
 * concurrent over the 10 wallets; over HTTP, or `aw.send` in process). For each: CPU per send by
 * thread (main; the EVM's tokio workers; V8's and libuv's helpers), JSON-RPC calls per send by
 * method, the database log's syncs per send, and the main thread's profile by place and by function. Writes the two `.cpuprofile`s to
 * `--out` (default bench/results/) for a flame chart.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { createWalletClient, custom, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { type BenchServer, drive, startBenchServer } from './lib/benchServer.js'
import {
  attribute,
  byFamily,
  byFunction,
  byPlace,
  type CpuProfile,
  inclusive,
  profiled,
} from './lib/cpuProfile.js'
import { sampledAllocations } from './lib/heapSample.js'
import { threadCpu, threadCpuSince } from './lib/threadCpu.js'

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    mode: { type: 'string', default: 'http' },
    count: { type: 'string', default: '600' },
    out: { type: 'string', default: new URL('./results/', import.meta.url).pathname },
    top: { type: 'string', default: '25' },
    sql: { type: 'boolean', default: false },
    /** `normal`: SQLite without a sync per commit, to tell the syncs' CPU (helper threads) from the rest. */
    synchronous: { type: 'string', default: 'full' },
    /** Also a sampled heap profile of each: the bytes allocated a send, by place (what GC clears). */
    heap: { type: 'boolean', default: false },
    /** With --sql: the callers (our frames) of the statements whose SQL contains this text. */
    stacks: { type: 'string' },
  },
})
/** Statements run a send, by SQL text (with --sql: better-sqlite3's Statement wrapped). */
const sql = new Map<string, number>()
const callers = new Map<string, number>()
const sqlMs = new Map<string, number>()
if (values.sql) {
  const require = createRequire(new URL('../packages/sqlite/package.json', import.meta.url))
  const Database = require('better-sqlite3')
  const probe = new Database(':memory:')
  const Statement = Object.getPrototypeOf(probe.prepare('SELECT 1'))
  probe.close()
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = Statement[method]
    Statement[method] = function (this: { source: string }, ...args: unknown[]) {
      sql.set(this.source, (sql.get(this.source) ?? 0) + 1)
      if (values.stacks && this.source.includes(values.stacks)) {
        const frames = (new Error().stack ?? '')
          .split('\n')
          .filter((line) => line.includes('/packages/core/'))
        const caller = frames
          .slice(0, 4)
          .map((line) =>
            line
              .trim()
              .replace(/\(?file:.*\/packages\/core\/src\//, '')
              .replace(/\)$/, ''),
          )
          .join(' < ')
        callers.set(caller, (callers.get(caller) ?? 0) + 1)
      }
      const started = performance.now()
      try {
        return original.apply(this, args)
      } finally {
        sqlMs.set(this.source, (sqlMs.get(this.source) ?? 0) + performance.now() - started)
      }
    }
  }
}
const count = Number(values.count)
const top = Number(values.top)
const rpc = new Map<string, number>()
/** Requests started while an identical one (method and params) was in flight, by method. */
const joinable = new Map<string, number>()
const inFlight = new Map<string, number>()
const counting = (provider: BenchServer['node']): BenchServer['node'] => ({
  ...provider,
  request: ((args: { method: string; params?: unknown }) => {
    rpc.set(args.method, (rpc.get(args.method) ?? 0) + 1)
    const key = JSON.stringify(args)
    const flying = inFlight.get(key) ?? 0
    if (flying > 0) joinable.set(args.method, (joinable.get(args.method) ?? 0) + 1)
    inFlight.set(key, flying + 1)
    const settled = () => {
      const left = inFlight.get(key)! - 1
      if (left === 0) inFlight.delete(key)
      else inFlight.set(key, left)
    }
    const answer = provider.request(args as never)
    answer.then(settled, settled)
    return answer
  }) as BenchServer['node']['request'],
})
const s = await startBenchServer(
  { trackerIntervalMs: 500 },
  { wrapNode: counting, synchronous: values.synchronous === 'normal' ? 'normal' : 'full' },
)
const wallets = await Promise.all(
  Array.from(
    { length: 10 },
    async (_, i) => (await s.agentWallet.createWallet({ agentName: `p-${i}` })).wallet,
  ),
)
for (const wallet of wallets) await s.devnet.faucet(wallet.address, parseEther('10'))
const recipient = s.devnet.accounts[9]!.address

const account = privateKeyToAccount(s.devnet.accounts[1]!.privateKey)
const client = createWalletClient({
  account,
  chain: s.devnet.chain,
  transport: custom(counting(s.devnet.provider)),
})
const fees = { maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n }
let nonce = 0
const raw = async (n: number) => {
  for (let i = 0; i < n; i++)
    await client.sendTransaction({ to: recipient, value: 1n, nonce: nonce++, gas: 21_000n, ...fees })
}
const ours = async (n: number) => {
  await drive(n, 20, 600_000, async (i) => {
    const wallet = wallets[i % 10]!.address
    if (values.mode === 'inprocess') await s.agentWallet.send({ wallet, to: recipient, value: '0.000001' })
    else {
      const { status, body } = await s.call('POST', `/wallet/${wallet}/send`, {
        to: recipient,
        value: '0.000001',
      })
      if (status !== 200) throw new Error(`send answered ${status}: ${JSON.stringify(body)}`)
    }
  })
}

/** CPU per send of `work(count)`, by thread, with its RPC calls per send and its main-thread profile. */
async function measure(name: string, work: (n: number) => Promise<void>) {
  await work(Math.min(200, count)) // warm-up: the JIT, the first pages of each table
  rpc.clear()
  joinable.clear()
  sql.clear()
  sqlMs.clear()
  // CPU measured unprofiled (the sampler's own thread and its interrupts would count), then profiled.
  const threads = threadCpu()
  const syncs = s.storage.syncs
  const cpu = process.cpuUsage()
  const started = performance.now()
  await work(count)
  const ms = performance.now() - started
  const { user, system } = process.cpuUsage(cpu)
  const byThread = threadCpuSince(threads)
  const syncsPerSend = (s.storage.syncs - syncs) / count
  const rpcCounts = new Map(rpc)
  const joinableCounts = new Map(joinable)
  const sqlCounts = new Map(
    [...sql].map(([k, v]) => [`${k.slice(0, 90)} (${((sqlMs.get(k) ?? 0) / count).toFixed(3)} ms)`, v]),
  )
  const { profile } = await profiled(() => work(count))
  const allocated = values.heap ? await sampledAllocations(() => work(count)) : []
  const perSend = (x: number) => Number((x / count).toFixed(3))
  return {
    name,
    sendsPerSecond: Number((count / (ms / 1000)).toFixed(1)),
    cpuMsPerSend: perSend((user + system) / 1000),
    syncsPerSend: Number(syncsPerSend.toFixed(3)),
    cpuMsPerSendByThread: Object.fromEntries(Object.entries(byThread).map(([k, v]) => [k, perSend(v)])),
    rpcPerSend: Object.fromEntries([...rpcCounts].map(([k, v]) => [k, perSend(v)])),
    joinablePerSend: Object.fromEntries([...joinableCounts].map(([k, v]) => [k, perSend(v)])),
    sqlPerSend: Object.fromEntries(
      [...sqlCounts].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, perSend(v)]),
    ),
    profile,
    allocated,
  }
}

function report(result: Awaited<ReturnType<typeof measure>>) {
  const { profile } = result
  const perSend = (rows: Array<{ bucket: string; ms: number }>, n: number) =>
    rows.slice(0, n).map(({ bucket, ms }) => `  ${(ms / count).toFixed(3).padStart(7)} ms  ${bucket}`)
  console.log(`\n## ${result.name}: ${result.sendsPerSecond} sends/s, CPU ${result.cpuMsPerSend} ms a send`)
  console.log(`by thread (ms a send): ${JSON.stringify(result.cpuMsPerSendByThread)}`)
  console.log(`syncs of the database log a send: ${result.syncsPerSend}`)
  console.log(`JSON-RPC a send: ${JSON.stringify(result.rpcPerSend)}`)
  if (values.heap) {
    const total = result.allocated.reduce((sum, { bytes }) => sum + bytes, 0)
    console.log(`allocated a send (sampled): ${(total / count / 1024).toFixed(1)} kB, by place:`)
    for (const { bucket, bytes } of result.allocated.slice(0, top))
      console.log(`  ${(bytes / count / 1024).toFixed(1).padStart(7)} kB  ${bucket}`)
  }
  console.log(`of which an identical request was in flight: ${JSON.stringify(result.joinablePerSend)}`)
  if (values.sql)
    console.log(
      `SQL statements a send:\n${Object.entries(result.sqlPerSend)
        .map(([k, v]) => `  ${v}  ${k}`)
        .join('\n')}`,
    )
  console.log('main thread by family (ms a send):')
  console.log(perSend(attribute(profile, byFamily), 10).join('\n'))
  console.log('main thread by place:')
  console.log(perSend(attribute(profile, byPlace), top).join('\n'))
  console.log('main thread by function (self):')
  console.log(perSend(byFunction(profile), top).join('\n'))
  const steps = inclusive(profile, [
    'submitIntent',
    'sendTransaction',
    'findWallet',
    'buildDraft',
    'effectsAhead',
    'predictEffects',
    'estimateAhead',
    'evaluateIntent',
    'judgeIntent',
    'prepareFunds',
    'allocateNonce',
    'auditDecision',
    'commitIntent',
    'signRecord',
    'saveSigned',
    'enqueueBroadcast',
    'toSendAnswer',
    'appendEvent',
    'transaction',
    'request',
  ])
  console.log('inclusive (ms a send):')
  for (const [name, ms] of Object.entries(steps))
    if (ms > 0) console.log(`  ${(ms / count).toFixed(3).padStart(7)} ms  ${name}`)
}

console.log(
  `mode ${values.mode}, ${count} sends each; load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
)
const results = [await measure('raw viem', raw), await measure(`AgentWallet (${values.mode})`, ours)]
for (const result of results) report(result)
mkdirSync(values.out!, { recursive: true })
for (const [i, result] of results.entries()) {
  const file = `${values.out}/send-${values.mode}-${i === 0 ? 'raw' : 'ours'}.cpuprofile`
  writeFileSync(file, JSON.stringify(result.profile satisfies CpuProfile))
}
if (values.stacks)
  console.log(
    `callers of "${values.stacks}" (all rounds):\n${[...callers]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `  ${v}  ${k}`)
      .join('\n')}`,
  )
console.log(
  `\nload after ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
)
await s.close()

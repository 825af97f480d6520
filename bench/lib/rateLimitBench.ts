import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { createAgentWallet } from '@agentwallet/core'
import { createDevnet } from '@agentwallet/devnet'
import { createApp, createLogger, type RateLimitOptions, type RunningServer } from '@agentwallet/koa'
import { postgresStorage } from '@agentwallet/postgres'
import type { Options, Row } from './benches.js'
import { drive, quantile } from './benchServer.js'

const databaseUrl = process.env.AGENTWALLET_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
/** `pg` is a dependency of the postgres package, not of the workspace root. */
const pg = createRequire(new URL('../../packages/postgres/package.json', import.meta.url))('pg') as {
  Client: new (config: {
    connectionString: string
  }) => {
    connect(): Promise<void>
    query(sql: string): Promise<unknown>
    end(): Promise<void>
  }
}
const round = (value: number, digits = 1) => Number(value.toFixed(digits))
/** Never refuses in this bench: the cost of asking is measured, not the limit. */
const roomy = { capacity: 1_000_000_000, refillPerSecond: 1_000_000_000 }

/**
 * GET /wallet/list on ONE Postgres storage through apps that differ only in the rate limiter:
 * none, in-memory buckets, the storage's shared buckets (one INSERT … ON CONFLICT per request), the
 * last with one API key and with eight. They alternate in short rounds so machine load hits each alike; ratios are of this one run.
 */
export async function rateLimitBench({ budgetMs }: Options): Promise<Row[]> {
  const schema = `aw_bench_${randomBytes(6).toString('hex')}`
  const devnet = await createDevnet()
  const storage = await postgresStorage({ connectionString: databaseUrl, schema })
  const agentWallet = await createAgentWallet({
    chains: {
      devnet: { provider: devnet.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
    },
    storage,
    masterKey: randomBytes(32),
    defaultTenantRules: [],
    track: false,
  })
  const adminKey = `aw_bench_${randomBytes(16).toString('hex')}`
  await agentWallet.bootstrapAdmin({ adminKey })
  for (let i = 0; i < 10; i++) await agentWallet.createWallet({ agentName: `list-${i}` })
  // Eight keys of the same tenant: each sees the same 10 wallets, and draws from its own bucket.
  const admin = agentWallet.as(await agentWallet.authenticate(adminKey))
  const keys = [adminKey]
  for (let i = 1; i < 8; i++) keys.push((await admin.createApiKey({ name: `bench-${i}`, role: 'admin' })).key)
  // One key is the worst case for the shared buckets: all 8 concurrent requests update one row.
  const variants: { name: string; rateLimit: RateLimitOptions | false; keys: number }[] = [
    { name: 'no rate limit', rateLimit: false, keys: 1 },
    { name: 'in-memory buckets', rateLimit: { ...roomy, shared: false }, keys: 1 },
    { name: 'Postgres-shared buckets', rateLimit: { ...roomy, shared: true }, keys: 1 },
    { name: 'Postgres-shared buckets, 8 keys', rateLimit: { ...roomy, shared: true }, keys: 8 },
  ]
  const servers: RunningServer[] = []
  try {
    for (const variant of variants) {
      const app = createApp({
        agentWallet,
        rateLimit: variant.rateLimit,
        logger: createLogger({ level: 'silent' }),
      })
      servers.push(await app.listen({ port: 0 }))
    }
    const list = (url: string, keyCount: number) => async (i: number) => {
      const headers = { 'x-api-key': keys[i % keyCount]! }
      const response = await fetch(`${url}/wallet/list`, { headers })
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`list answered ${response.status}`)
    }
    for (const [i, server] of servers.entries())
      await drive(100, 8, budgetMs, list(server.url, variants[i]!.keys)) // warm-up
    const rounds = 5
    const totals = variants.map(() => ({ done: 0, ms: 0, latencies: [] as number[] }))
    for (let round = 0; round < rounds; round++) {
      for (const [i, server] of servers.entries()) {
        const slice = (budgetMs * 0.8) / rounds / servers.length
        const run = await drive(Number.POSITIVE_INFINITY, 8, slice, list(server.url, variants[i]!.keys))
        totals[i]!.done += run.done
        totals[i]!.ms += run.ms
        totals[i]!.latencies.push(...run.latencies)
      }
    }
    const takes = await drive(Number.POSITIVE_INFINITY, 1, budgetMs * 0.1, async (i) => {
      await storage.takeToken(`key:bench-${i % 100}`, roomy)
    })
    const rate = (total: { done: number; ms: number }) => total.done / (total.ms / 1000)
    const memoryRate = rate(totals[1]!)
    const rows: Row[] = variants.map((variant, i) => ({
      bench: 'rate limit (HTTP, Postgres)',
      metric: `GET /wallet/list, ${variant.name}`,
      value: round(rate(totals[i]!)),
      unit: 'requests/s',
      note: `${round(rate(totals[i]!) / memoryRate, 2)}× in-memory; p50 ${round(quantile(totals[i]!.latencies, 0.5), 2)} ms, p95 ${round(quantile(totals[i]!.latencies, 0.95), 2)} ms; ${totals[i]!.done} requests, 8 concurrent, ${rounds} alternating rounds`,
    }))
    rows.push({
      bench: 'rate limit (HTTP, Postgres)',
      metric: 'storage.takeToken alone, sequential, p50',
      value: round(quantile(takes.latencies, 0.5), 3),
      unit: 'ms',
      note: `p95 ${round(quantile(takes.latencies, 0.95), 3)} ms; ${takes.done} takes over 100 keys`,
    })
    return rows
  } finally {
    for (const server of servers) await server.close()
    await agentWallet.close()
    await storage.close()
    await devnet.close()
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => client.end())
  }
}

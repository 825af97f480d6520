import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { Writable } from 'node:stream'
import { type AgentWallet, createAgentWallet } from '@agentwallet/core'
import { createDevnet, type Devnet } from '@agentwallet/devnet'
import { createApp, createLogger, type RateLimitOptions, type RunningServer } from '@agentwallet/koa'
import { postgresStorage } from '@agentwallet/postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testAdminKey } from './helpers/testServer.js'

const testUrl = process.env.AGENTWALLET_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
/** `pg` is a dependency of the postgres package, not of this one (as in test/replicas). */
const pg = createRequire(new URL('../../postgres/package.json', import.meta.url))('pg') as {
  Client: new (config: {
    connectionString: string
  }) => {
    connect(): Promise<void>
    query(sql: string): Promise<unknown>
    end(): Promise<void>
  }
}
/** Runs statements on the test database (schema cleanup, breaking a table on purpose). */
const sql = async (...statements: string[]) => {
  const client = new pg.Client({ connectionString: testUrl })
  await client.connect()
  try {
    for (const statement of statements) await client.query(statement)
  } finally {
    await client.end()
  }
}
const masterKey = randomBytes(32)
const schemas: string[] = []
let devnet: Devnet

beforeAll(async () => {
  devnet = await createDevnet()
})
afterAll(async () => {
  await devnet?.close()
  await sql(...schemas.map((schema) => `DROP SCHEMA IF EXISTS "${schema}" CASCADE`))
})

type Envelope = { success: boolean; error?: { code: string; details?: { retryAfterSeconds?: number } } }

type Replica = {
  agentWallet: AgentWallet
  server: RunningServer
  logs: string[]
  get(path: string, key?: string): Promise<{ status: number; body: Envelope; headers: Headers }>
  close(): Promise<void>
}

/** One server process' worth: its own pools on the shared schema, its own app. */
async function replica(schema: string, rateLimit: RateLimitOptions): Promise<Replica> {
  const storage = await postgresStorage({ connectionString: testUrl, schema, poolSize: 4 })
  const agentWallet = await createAgentWallet({
    chains: {
      devnet: { provider: devnet.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
    },
    storage,
    masterKey,
    defaultTenantRules: [],
    track: false,
  })
  await agentWallet.bootstrapAdmin({ adminKey: testAdminKey })
  const logs: string[] = []
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(chunk.toString())
      done()
    },
  })
  const server = await createApp({ agentWallet, rateLimit, logger: createLogger({ destination }) }).listen({
    port: 0,
  })
  return {
    agentWallet,
    server,
    logs,
    async get(path, key = testAdminKey) {
      const response = await fetch(`${server.url}${path}`, { headers: { 'x-api-key': key } })
      return { status: response.status, body: (await response.json()) as Envelope, headers: response.headers }
    },
    async close() {
      await server.close()
      await agentWallet.close()
      await storage.close()
    },
  }
}

const nextSchema = () => {
  const schema = `aw_test_${randomBytes(6).toString('hex')}`
  schemas.push(schema)
  return schema
}

describe('rate limits on Postgres storage', () => {
  it('are shared by two app instances on one database: 429, envelope and Retry-After once spent', async () => {
    const schema = nextSchema()
    const limit = { capacity: 4, refillPerSecond: 0.01 }
    const a = await replica(schema, limit)
    const b = await replica(schema, limit)
    try {
      const statuses = []
      for (let i = 0; i < 4; i++) statuses.push((await (i % 2 ? b : a).get('/wallet/list')).status)
      expect(statuses).toEqual([200, 200, 200, 200])
      for (const limited of [await a.get('/wallet/list'), await b.get('/wallet/list')]) {
        expect(limited.status).toBe(429)
        expect(limited.body).toMatchObject({ success: false, error: { code: 'rate_limited' } })
        const retryAfter = Number(limited.headers.get('retry-after'))
        expect(retryAfter).toBeGreaterThanOrEqual(1)
        expect(limited.body.error?.details?.retryAfterSeconds).toBe(retryAfter)
      }
    } finally {
      await Promise.all([a.close(), b.close()])
    }
  })

  it('keeps per-process buckets with shared: false (each instance its own limit)', async () => {
    const schema = nextSchema()
    const limit = { capacity: 2, refillPerSecond: 0.01, shared: false }
    const a = await replica(schema, limit)
    const b = await replica(schema, limit)
    try {
      const statuses = []
      for (const app of [a, a, b, b, a, b]) statuses.push((await app.get('/wallet/list')).status)
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429])
    } finally {
      await Promise.all([a.close(), b.close()])
    }
  })

  it('falls back to the per-process bucket when the shared take fails, and logs it once', async () => {
    const schema = nextSchema()
    const a = await replica(schema, { capacity: 3, refillPerSecond: 0.01 })
    try {
      expect((await a.get('/wallet/list')).status).toBe(200)
      // A real database failure inside the take: its table is gone (the other queries still work).
      await sql(`DROP TABLE "${schema}".rate_buckets`)
      const statuses = []
      for (let i = 0; i < 4; i++) statuses.push((await a.get('/wallet/list')).status)
      // Fail-open to the local bucket, not to no limit: its own 3 tokens, then 429.
      expect(statuses).toEqual([200, 200, 200, 429])
      const warnings = a.logs.filter((line) => line.includes('shared rate limit failing'))
      expect(warnings).toHaveLength(1)
      expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, limiter: 'key:' })
    } finally {
      await a.close()
    }
  })
})

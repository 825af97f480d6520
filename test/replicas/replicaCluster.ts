import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type CliProcess, repoRoot, runCli, startCli } from './cliProcess.js'

export const databaseUrl = process.env.AGENTWALLET_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

export type Replica = { name: string; url: string; process: CliProcess }

export type Answer = { status: number; body: Record<string, any> }

/** One JSON request to a replica; a connection error (a killed replica) rejects. */
export async function call(
  replica: { url: string },
  key: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(`${replica.url}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  })
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

/**
 * A devnet JSON-RPC process and `agentwallet serve` replicas on one Postgres schema: the deployment
 * of docs/deploy.md, on 127.0.0.1 only. Every process it starts is stopped by `close()`.
 */
export function replicaCluster(options: { schema: string; webhookEnv?: boolean }) {
  const processes = new Set<CliProcess>()
  // Postgres holds the state; the data dir only ever gets files a replica writes for its operator.
  const dataDir = mkdtempSync(join(tmpdir(), 'aw-replicas-'))
  const env = {
    AGENTWALLET_MASTER_KEY: 'a1'.repeat(32),
    AGENTWALLET_ADMIN_KEY: `aw_replicas_admin_${'7'.repeat(32)}`,
    AGENTWALLET_ALLOW_PRIVATE_WEBHOOKS: '127.0.0.0/8,::1/128',
    AGENTWALLET_LOG_LEVEL: 'warn',
    // The bursts here are the load under test, not abuse: the shared per-key limit must not shape them.
    AGENTWALLET_RATE_LIMIT: '2000/500',
  }
  let rpcUrl = ''
  // Each replica names its connections, so a test can tell which one holds a lock.
  const dbFlags = (name: string) => [
    '--storage',
    'postgres',
    '--database-url',
    `${databaseUrl}${databaseUrl.includes('?') ? '&' : '?'}application_name=${name}`,
    '--database-schema',
    options.schema,
  ]
  const track = (process: CliProcess) => {
    processes.add(process)
    void process.exited.then(() => processes.delete(process))
    return process
  }
  return {
    adminKey: env.AGENTWALLET_ADMIN_KEY,
    get rpcUrl() {
      return rpcUrl
    },
    async startDevnet(): Promise<string> {
      const devnet = track(startCli(['devnet', '--storage', 'memory', '--port', '0'], {}))
      rpcUrl = (await devnet.waitFor(/Devnet JSON-RPC \(chain id 31337[^)]*\) on (\S+)/, 60_000))[1]!
      return rpcUrl
    },
    migrate: () => runCli(['migrate', ...dbFlags('migrate')], {}, 60_000),
    async startReplica(name: string): Promise<Replica> {
      const process = track(
        startCli(
          [
            'serve',
            '--port',
            '0',
            ...dbFlags(name),
            '--chain',
            `devnet=${rpcUrl}`,
            '--data-dir',
            join(dataDir, name),
          ],
          env,
        ),
      )
      const url = (await process.waitFor(/AgentWallet listening on (\S+)/, 60_000))[1]!
      return { name, url, process }
    },
    async close() {
      await Promise.all([...processes].map((process) => process.kill('SIGKILL')))
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

type Socket = {
  on(event: 'message', listener: (raw: Buffer) => void): void
  on(event: 'open', listener: () => void): void
  on(event: 'close', listener: (code: number) => void): void
  terminate(): void
}
/** `ws` is a dependency of the koa package, not of the workspace root. */
const WebSocket = createRequire(join(repoRoot, 'packages/koa/package.json'))('ws') as new (
  url: string,
) => Socket

export type WsMessage = { type: string; id?: string; data?: Record<string, unknown> }

/** A WebSocket client on a replica's /ws that keeps every message. */
export function connectWs(replica: { url: string }, key: string) {
  const socket = new WebSocket(`${replica.url.replace('http', 'ws')}/ws?apiKey=${key}`)
  const messages: WsMessage[] = []
  socket.on('message', (raw) => messages.push(JSON.parse(raw.toString()) as WsMessage))
  const closed = new Promise<number>((resolve) => socket.on('close', resolve))
  return {
    messages,
    /** The close code once the server closes the socket; rejects after `timeoutMs`. */
    closedWithin(timeoutMs: number): Promise<number> {
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the socket was not closed in ${timeoutMs} ms`)), timeoutMs)
      })
      return Promise.race([closed, timeout]).finally(() => clearTimeout(timer))
    },
    close: () => socket.terminate(),
    async next(predicate: (message: WsMessage) => boolean, timeoutMs: number): Promise<WsMessage> {
      const deadline = Date.now() + timeoutMs
      while (Date.now() < deadline) {
        const found = messages.find(predicate)
        if (found) return found
        await sleep(20)
      }
      throw new Error(
        `no WebSocket message matched in ${timeoutMs} ms; got ${messages.map((m) => m.type).join(',')}`,
      )
    },
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `check` until it returns a value other than undefined, at most `timeoutMs`. */
export async function waitUntil<T>(
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  while (Date.now() < deadline) {
    try {
      const value = await check()
      if (value !== undefined) return value
    } catch (error) {
      last = error
    }
    await sleep(250)
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`)
}

type PgClient = {
  connect(): Promise<void>
  query<R>(text: string, values?: unknown[]): Promise<{ rows: R[] }>
  end(): Promise<void>
}
/** `pg` is a dependency of the postgres package, not of the workspace root. */
const pg = createRequire(join(repoRoot, 'packages/postgres/package.json'))('pg') as {
  Client: new (config: { connectionString: string }) => PgClient
}

/**
 * The `application_name` of the replica whose connection holds the advisory lock `lockId` (a
 * session lock: the tracker leader), or undefined. Replicas connect with `?application_name=<name>`.
 */
export async function advisoryLockHolder(lockId: string): Promise<string | undefined> {
  const id = BigInt.asUintN(64, BigInt(lockId))
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
          AND l.classid::bigint = $1 AND l.objid::bigint = $2`,
      [(id >> 32n).toString(), (id & 0xffffffffn).toString()],
    )
    return rows[0]?.name
  } finally {
    await client.end()
  }
}

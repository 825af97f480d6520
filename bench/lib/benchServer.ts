import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type AgentWallet,
  type AgentWalletConfig,
  createAgentWallet,
  type Principal,
} from '@agentwallet/core'
import { createDevnet, type Devnet } from '@agentwallet/devnet'
import { createApp, createLogger, type RunningServer } from '@agentwallet/koa'
import { sqliteStorage } from '@agentwallet/sqlite'

export type BenchServer = {
  /** The temp dir holding the database (an fsync probe may write beside it). */
  dir: string
  devnet: Devnet
  /** The devnet as the server reaches it: `nodeLatencyMs` away (the devnet's own provider at 0). */
  node: Devnet['provider']
  agentWallet: AgentWallet
  storage: ReturnType<typeof sqliteStorage>
  server: RunningServer
  adminKey: string
  admin: Principal
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>
  close(): Promise<void>
}

/**
 * The server as `agentwallet serve` runs it by default — SQLite (synchronous=full, WAL) in a fresh
 * temp dir, a sealed local vault — over an in-process devnet, with logging and rate limits off.
 */
export async function startBenchServer(
  config: Partial<AgentWalletConfig> = {},
  {
    nodeLatencyMs = 0,
    wrapNode = (provider) => provider,
    synchronous = 'full',
  }: {
    nodeLatencyMs?: number
    /** SQLite's `synchronous` (default `full`, as `agentwallet serve`): `normal` only to profile without the syncs. */
    synchronous?: 'full' | 'normal'
    /** Wraps the devnet as the server reaches it (to count its JSON-RPC calls). */
    wrapNode?: (provider: Devnet['provider']) => Devnet['provider']
  } = {},
): Promise<BenchServer> {
  const dir = mkdtempSync(join(tmpdir(), 'aw-bench-'))
  const devnet = await createDevnet()
  const node = wrapNode(nodeLatencyMs > 0 ? away(devnet.provider, nodeLatencyMs) : devnet.provider)
  const storage = sqliteStorage({ filename: join(dir, 'agentwallet.db'), synchronous })
  const agentWallet = await createAgentWallet({
    chains: {
      devnet: { provider: node, chainId: devnet.chain.id, contracts: devnet.addressBook },
    },
    storage,
    masterKey: randomBytes(32),
    defaultTenantRules: [],
    ...config,
  })
  const adminKey = `aw_bench_${randomBytes(16).toString('hex')}`
  await agentWallet.bootstrapAdmin({ adminKey })
  const admin = await agentWallet.authenticate(adminKey)
  const server = await createApp({
    agentWallet,
    rateLimit: false,
    logger: createLogger({ level: 'silent' }),
  }).listen({
    port: 0,
  })
  return {
    dir,
    devnet,
    node,
    agentWallet,
    storage,
    server,
    adminKey,
    admin,
    call: callServer(server.url, adminKey),
    async close() {
      await server.close()
      await agentWallet.close()
      await devnet.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * Calls a bench server's API as its admin: JSON in, status and JSON out.
 * @example const call = callServer(server.url, adminKey); await call('POST', '/wallet/create', {})
 */
export function callServer(url: string, adminKey: string): BenchServer['call'] {
  return async (method, path, body) => {
    const request = () =>
      fetch(`${url}${path}`, {
        method,
        headers: {
          'x-api-key': adminKey,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    // A keep-alive socket that sat idle past the server's 5 s keepAliveTimeout (while seeding) is
    // reset on reuse before the request is read; one retry on a fresh socket is safe.
    const response = await request().catch((error: Error) => {
      if ((error.cause as { code?: string } | undefined)?.code !== 'ECONNRESET') throw error
      return request()
    })
    return { status: response.status, body: await response.json() }
  }
}

/** Runs `task` with `concurrency` workers until `count` calls are done or `budgetMs` has passed. */
export async function drive(
  count: number,
  concurrency: number,
  budgetMs: number,
  task: (index: number) => Promise<void>,
): Promise<{ done: number; ms: number; latencies: number[] }> {
  const started = performance.now()
  const latencies: number[] = []
  let next = 0
  const worker = async () => {
    while (next < count && performance.now() - started < budgetMs) {
      const index = next++
      const t = performance.now()
      await task(index)
      latencies.push(performance.now() - t)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return { done: latencies.length, ms: performance.now() - started, latencies }
}

export function quantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
}

export function median(samples: number[]): number {
  return quantile(samples, 0.5)
}

/**
 * The provider as a node `ms` away answers it: each request waits `ms` (the round trip) before it
 * reaches the devnet; requests in flight do not wait for each other, as over a pool of connections.
 */
function away(provider: Devnet['provider'], ms: number): Devnet['provider'] {
  return {
    ...provider,
    request: (async (args: Parameters<Devnet['provider']['request']>[0]) => {
      await new Promise((resolve) => setTimeout(resolve, ms))
      return provider.request(args)
    }) as Devnet['provider']['request'],
  }
}

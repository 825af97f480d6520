import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type AgentWallet,
  type ChainConfig,
  createAgentWallet,
  memoryStorage,
  type Storage,
} from '@agentwallet/core'
import { createDevnet, type Devnet } from '@agentwallet/devnet'
import { type CreateAppOptions, createApp, createLogger, type RunningServer } from '@agentwallet/koa'
import { sqliteStorage } from '@agentwallet/sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

let devnet: Devnet
const opened: { server: RunningServer; agentWallet: AgentWallet }[] = []

beforeAll(async () => {
  devnet = await createDevnet()
})
afterAll(async () => {
  for (const { server, agentWallet } of opened) {
    await server.close()
    await agentWallet.close()
  }
  await devnet?.close()
})

const devnetChain = (): ChainConfig => ({
  provider: devnet.provider,
  chainId: devnet.chain.id,
  contracts: devnet.addressBook,
})

/** An EIP-1193 provider whose node is gone: every request fails. */
const deadProvider = {
  request: async () => {
    throw new Error('connect ECONNREFUSED')
  },
}
/** A node that accepted the connection and never answers. */
const hungProvider = { request: () => new Promise<never>(() => {}) }

async function serve(
  chains: Record<string, ChainConfig>,
  options: Partial<CreateAppOptions> & { storage?: Storage } = {},
) {
  const agentWallet = await createAgentWallet({
    chains,
    storage: options.storage ?? memoryStorage(),
    masterKey: '11'.repeat(32),
    defaultTenantRules: [],
    track: false,
  })
  const logger = createLogger({ level: 'silent' })
  const server = await createApp({ agentWallet, rateLimit: false, logger, ...options }).listen({ port: 0 })
  opened.push({ server, agentWallet })
  const get = async (path: string) => {
    const response = await fetch(`${server.url}${path}`)
    return { status: response.status, body: (await response.json()) as any }
  }
  return { agentWallet, server, get }
}

/** A TCP port on 127.0.0.1 nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

describe('health probes', () => {
  it('reports each chain with its head block and the storage, and is ready when all answer', async () => {
    const { get } = await serve({ devnet: devnetChain() })
    for (const path of ['/health', '/health/ready']) {
      const { status, body } = await get(path)
      expect(status, path).toBe(200)
      expect(body).toMatchObject({
        success: true,
        status: 'ok',
        ready: true,
        storage: { name: 'memory', reachable: true },
        chains: [{ name: 'devnet', chainId: 31337, required: true, reachable: true }],
      })
      expect(body.chains[0].headBlock).toBeGreaterThan(0)
      expect(body.chains[0].headAgeSeconds).toBeGreaterThanOrEqual(0)
    }
  })

  it('is not ready while a chain’s RPC is dead, naming it; live still answers', async () => {
    const { get } = await serve({ devnet: devnetChain(), backup: { provider: deadProvider, chainId: 5 } })
    const ready = await get('/health/ready')
    expect(ready.status).toBe(503)
    expect(ready.body.success).toBe(false)
    expect(ready.body.error.code).toBe('not_ready')
    expect(ready.body.error.details.down).toEqual(['backup'])
    expect(ready.body.status).toBe('unavailable')
    const backup = ready.body.chains.find((chain: { name: string }) => chain.name === 'backup')
    expect(backup).toMatchObject({
      reachable: false,
      headBlock: null,
      headAgeSeconds: null,
      error: 'unreachable',
    })
    expect(JSON.stringify(ready.body)).not.toContain('ECONNREFUSED')
    expect((await get('/health')).status).toBe(503)
    const live = await get('/health/live')
    expect(live.status).toBe(200)
    expect(live.body).toMatchObject({ success: true, status: 'ok' })
  })

  it('names a chain behind a closed port', async () => {
    const port = await closedPort()
    const { get } = await serve({ remote: { rpcUrl: `http://127.0.0.1:${port}`, chainId: 31337 } })
    const ready = await get('/health/ready')
    expect(ready.status).toBe(503)
    expect(ready.body.error.details.down).toEqual(['remote'])
  })

  it('bounds a hung RPC by the probe timeout', async () => {
    const { get } = await serve(
      { devnet: devnetChain(), stuck: { provider: hungProvider, chainId: 7 } },
      { health: { timeoutMs: 200 } },
    )
    const ready = await get('/health/ready')
    expect(ready.status).toBe(503)
    expect(ready.body.chains.find((chain: { name: string }) => chain.name === 'stuck')).toMatchObject({
      reachable: false,
      error: 'timeout',
    })
  })

  it('needs only the chains the operator names; the others are reported', async () => {
    const { get } = await serve(
      { devnet: devnetChain(), backup: { provider: deadProvider, chainId: 5 } },
      { health: { requiredChains: ['devnet'] } },
    )
    const ready = await get('/health/ready')
    expect(ready.status).toBe(200)
    expect(ready.body.chains).toMatchObject([
      { name: 'devnet', required: true, reachable: true },
      { name: 'backup', required: false, reachable: false },
    ])
  })

  it('refuses a required chain that is not configured', async () => {
    const agentWallet = await createAgentWallet({ chains: { devnet: devnetChain() }, track: false })
    try {
      expect(() => createApp({ agentWallet, health: { requiredChains: ['mainnet'] } })).toThrow(
        expect.objectContaining({ code: 'validation_failed' }),
      )
    } finally {
      await agentWallet.close()
    }
  })

  it('is not ready when the storage is closed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aw-health-'))
    try {
      const storage = sqliteStorage({ filename: join(dir, 'agentwallet.db') })
      const { get } = await serve({ devnet: devnetChain() }, { storage, health: { reuseMs: 0 } })
      expect((await get('/health/ready')).status).toBe(200)
      await storage.close()
      const ready = await get('/health/ready')
      expect(ready.status).toBe(503)
      expect(ready.body.error.details.down).toEqual(['storage'])
      expect(ready.body.storage).toMatchObject({ name: 'sqlite', reachable: false })
      expect((await get('/health/live')).status).toBe(200)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('types the probes in /openapi.json', async () => {
    const { get } = await serve({ devnet: devnetChain() })
    const { body } = await get('/openapi.json')
    const ready = body.paths['/health/ready'].get
    expect(ready.security).toEqual([])
    const success = ready.responses['200'].content['application/json'].schema
    expect(Object.keys(success.properties)).toEqual(
      expect.arrayContaining(['success', 'status', 'ready', 'storage', 'chains']),
    )
    const failure = ready.responses['503'].content['application/json'].schema
    expect(failure.properties.error.properties.code.enum).toEqual(['not_ready'])
    expect(Object.keys(failure.properties)).toEqual(expect.arrayContaining(['chains', 'storage']))
    expect(
      body.paths['/health/live'].get.responses['200'].content['application/json'].schema.properties,
    ).toHaveProperty('uptimeSeconds')
    expect(body.paths['/health'].get.responses['503']).toBeDefined()
  })
})

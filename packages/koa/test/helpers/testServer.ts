import { Writable } from 'node:stream'
import { type AgentWallet, createAgentWallet, memoryStorage } from '@agentwallet/core'
import { createDevnet, type Devnet } from '@agentwallet/devnet'
import { type CreateAppOptions, createApp, createLogger, type RunningServer } from '@agentwallet/koa'

export type TestServer = {
  devnet: Devnet
  agentWallet: AgentWallet
  server: RunningServer
  url: string
  adminKey: string
  /** Every log line the server wrote, as text. */
  logs: string[]
  call(
    method: string,
    path: string,
    options?: { key?: string | undefined; body?: unknown; headers?: Record<string, string>; raw?: string },
  ): Promise<{ status: number; body: any; headers: Headers }>
  close(): Promise<void>
}

export const testAdminKey = 'aw_test_root_admin_key_0123456789abcdef'

/** A real server on 127.0.0.1:0 over a fresh devnet and memory storage, with its logs captured. */
export async function startTestServer(
  options: Partial<CreateAppOptions> & { devnet?: Devnet } = {},
): Promise<TestServer> {
  const devnet = options.devnet ?? (await createDevnet())
  const agentWallet = await createAgentWallet({
    chains: {
      devnet: { provider: devnet.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
    },
    storage: memoryStorage(),
    defaultTenantRules: [],
    trackerIntervalMs: 20,
    checkOperations: true,
  })
  await agentWallet.bootstrapAdmin({ adminKey: testAdminKey })
  const logs: string[] = []
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(chunk.toString())
      done()
    },
  })
  const app = createApp({
    agentWallet,
    logger: createLogger({ destination }),
    rateLimit: false,
    heartbeatMs: 200,
    ...options,
  })
  const server = await app.listen({ port: 0 })
  const call: TestServer['call'] = async (
    method,
    path,
    { key = testAdminKey, body, headers = {}, raw } = {},
  ) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(key ? { 'x-api-key': key } : {}),
        ...(body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    })
    const text = await response.text()
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = text
    }
    return { status: response.status, body: parsed, headers: response.headers }
  }
  return {
    devnet,
    agentWallet,
    server,
    url: server.url,
    adminKey: testAdminKey,
    logs,
    call,
    async close() {
      await server.close()
      await agentWallet.close()
      if (!options.devnet) await devnet.close()
    },
  }
}

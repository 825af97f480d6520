import { Writable } from 'node:stream'
import { type AgentWallet, type AgentWalletConfig, createAgentWallet, memoryStorage } from '@agentwallet/core'
import { type CreateDevnetOptions, createDevnet, type Devnet } from '@agentwallet/devnet'
import { createApp, createLogger, type RunningServer } from '@agentwallet/koa'

export type CallOptions = {
  key?: string | undefined
  body?: unknown
  raw?: string | undefined
  headers?: Record<string, string> | undefined
  /** Abort after this many ms (default 10 s): a hang is a failure, not a stuck suite. */
  timeoutMs?: number | undefined
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
export type CallResult = { status: number; text: string; body: any; contentType: string }

export type HarnessServer = {
  devnet: Devnet
  agentWallet: AgentWallet
  server: RunningServer
  adminKey: string
  metricsToken: string
  logs: string[]
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>
  close(): Promise<void>
}

export const harnessAdminKey = 'aw_harness_root_admin_key_0123456789abcdef'
/** The operator token of `GET /metrics` (its own bearer scheme, not an API key). */
export const harnessMetricsToken = 'harness_metrics_token_0123456789abcdef'

/**
 * A real server on 127.0.0.1:0 over a fresh devnet and memory storage, with loopback webhook targets
 * allowed and fast background loops; its log lines are kept for the 5xx/stack checks.
 */
export async function startHarnessServer(
  options: {
    bodyLimitBytes?: number
    devnet?: CreateDevnetOptions
    screening?: AgentWalletConfig['screening']
  } = {},
): Promise<HarnessServer> {
  const devnet = await createDevnet(options.devnet)
  const agentWallet = await createAgentWallet({
    chains: {
      devnet: { provider: devnet.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
    },
    storage: memoryStorage(),
    defaultTenantRules: [],
    trackerIntervalMs: 20,
    checkOperations: true,
    screening: options.screening,
    webhooks: { allowPrivateTargets: ['127.0.0.0/8'], intervalMs: 20, backoffBaseMs: 20, backoffMaxMs: 100 },
  })
  await agentWallet.bootstrapAdmin({ adminKey: harnessAdminKey })
  const logs: string[] = []
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(chunk.toString())
      done()
    },
  })
  const server = await createApp({
    agentWallet,
    logger: createLogger({ destination }),
    rateLimit: false,
    bodyLimitBytes: options.bodyLimitBytes,
    metrics: { token: harnessMetricsToken },
  }).listen({ port: 0 })

  const call: HarnessServer['call'] = async (
    method,
    path,
    { key, body, raw, headers = {}, timeoutMs = 10_000 } = {},
  ) => {
    const hasBody = body !== undefined || raw !== undefined
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(key ? { 'x-api-key': key } : {}),
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await response.text()
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = undefined
    }
    return {
      status: response.status,
      text,
      body: parsed,
      contentType: response.headers.get('content-type') ?? '',
    }
  }

  return {
    devnet,
    agentWallet,
    server,
    adminKey: harnessAdminKey,
    metricsToken: harnessMetricsToken,
    logs,
    call,
    async close() {
      await server.close()
      await agentWallet.close()
      await devnet.close()
    },
  }
}

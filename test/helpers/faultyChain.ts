import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type AgentWallet, createAgentWallet, memoryStorage } from '@agentwallet/core'
import { type Devnet, type DevnetProvider, RpcError } from '@agentwallet/devnet'
import { type Hex, HttpRequestError, keccak256 } from 'viem'

/**
 * What the faulty chain does to one call. `after: true` means the call reached the node first and
 * only its answer was lost (the node did it); otherwise the node never saw the call.
 */
export type Fault =
  /** Waits `ms`, then forwards. */
  | { kind: 'latency'; ms: number }
  /** An HTTP status with no JSON-RPC answer (429, 503…): viem's `HttpRequestError`, as its http transport throws. */
  | { kind: 'status'; status: number; after?: boolean | undefined }
  /** A JSON-RPC error: `-32005` rate limit, or a definite refusal such as "nonce too low" (never forwarded). */
  | { kind: 'rpcError'; code: number; message: string; after?: boolean | undefined }
  /** `eth_sendRawTransaction` answered with the tx hash and never forwarded: the send is lost. */
  | { kind: 'swallow' }
  /** Never answers (the caller's timeout must end it; a proxy's `close()` drops the connection). */
  | { kind: 'hang' }

/** Ready-made faults, as nodes and hosted RPCs send them. */
export const faults = {
  unavailable: { kind: 'status', status: 503 },
  tooManyRequests: { kind: 'status', status: 429 },
  rateLimited: { kind: 'rpcError', code: -32005, message: 'request rate exceeded' },
  nonceTooLow: { kind: 'rpcError', code: -32000, message: 'nonce too low' },
  underpriced: { kind: 'rpcError', code: -32000, message: 'replacement transaction underpriced' },
  swallow: { kind: 'swallow' },
  hang: { kind: 'hang' },
  /** The same fault met after the node ran the call: the answer is lost, the effect is not. */
  lostAnswer: (fault: Extract<Fault, { kind: 'status' | 'rpcError' }>): Fault => ({ ...fault, after: true }),
} as const satisfies Record<string, Fault | ((fault: never) => Fault)>

/** One rule of a plan: which calls it takes, how often, and the fault. */
export type FaultRule = {
  /** Methods it applies to (default: every method); see {@link readMethod}. */
  method?: string | readonly string[] | ((method: string) => boolean) | undefined
  fault: Fault
  /** Chance per matching call, drawn from the seeded RNG (default 1). */
  probability?: number | undefined
  /** Matching calls let through before the rule starts (default 0). */
  skip?: number | undefined
  /** Calls it faults at most (default: no limit). */
  times?: number | undefined
}

/** The call a plan function judges; `random` is the seeded RNG. */
export type FaultCall = { method: string; params: readonly unknown[]; index: number; random: () => number }

/** Rules (the first that takes a call wins) or a function of the call. */
export type FaultPlan = readonly FaultRule[] | ((call: FaultCall) => Fault | undefined)

/** What the faulty chain did with one call, in arrival order. */
export type FaultRecord = {
  index: number
  method: string
  fault?: Fault['kind'] | undefined
  /** The node saw the call (forwarded before, or despite, the fault). */
  forwarded: boolean
}

export type FaultyChainOptions = {
  plan?: FaultPlan | undefined
  /** Seed of the RNG that `probability` draws from (default 1): the same seed, the same faults. */
  seed?: number | undefined
}

/** The controls and the record shared by both forms. */
export type FaultyChain = {
  readonly log: readonly FaultRecord[]
  /** Replaces the plan from the next call on (`[]` = a healthy chain). */
  setPlan(plan: FaultPlan): void
  /** How many calls met a fault, of one kind and/or method. */
  count(filter?: { fault?: Fault['kind']; method?: string }): number
}

/** True for a read: anything but a send and the devnet's own test methods. */
export function readMethod(method: string): boolean {
  return !/^eth_send|^evm_|^hardhat_|^agentwallet_/.test(method)
}

/** Any EIP-1193 provider; typed like the devnet's so viem's `custom()` takes it. */
type Provider = DevnetProvider

/**
 * An EIP-1193 provider in front of `inner` (e.g. `devnet.provider`) that injects the plan's faults.
 * @example const chain = faultyProvider(devnet.provider, { seed: 7, plan: [{ method: readMethod, fault: faults.rateLimited, probability: 0.3 }] })
 * createAgentWallet({ chains: { devnet: { provider: chain.provider, chainId: 31337 } }, … })
 */
export function faultyProvider(
  inner: Provider,
  options: FaultyChainOptions = {},
): FaultyChain & { provider: Provider } {
  const engine = faultEngine(options)
  const provider: Provider = {
    async request({ method, params }) {
      const list = Array.isArray(params) ? params : []
      const { fault, record } = engine.decide(method, list)
      if (fault?.kind === 'hang') return new Promise(() => {})
      if (fault?.kind === 'swallow' && method === 'eth_sendRawTransaction') return keccak256(list[0] as Hex)
      if (fault?.kind === 'latency') await sleep(fault.ms)
      const forward = forwards(fault)
      const result = forward ? await inner.request({ method, params: list }) : undefined
      record.forwarded = forward
      if (!fault || fault.kind === 'latency' || fault.kind === 'swallow') return result
      if (fault.kind === 'status')
        throw new HttpRequestError({ url: 'http://faulty-chain', status: fault.status, body: { method } })
      throw new RpcError({ code: fault.code, message: fault.message })
    },
  }
  return { ...engine.controls, provider }
}

/** A faulty JSON-RPC proxy on 127.0.0.1. */
export type FaultyRpcServer = FaultyChain & { url: string; close(): Promise<void> }

/**
 * A `node:http` JSON-RPC proxy on 127.0.0.1 in front of `target` (an RPC URL, or a provider such as
 * `devnet.provider`), injecting the plan's faults: for `serve --chain devnet=<url>` tests.
 * @example const proxy = await faultyRpcServer(devnetUrl, { plan: [{ fault: faults.unavailable, times: 2 }] })
 */
export async function faultyRpcServer(
  target: string | Provider,
  options: FaultyChainOptions = {},
): Promise<FaultyRpcServer> {
  const engine = faultEngine(options)
  const upstream = typeof target === 'string' ? urlForwarder(target) : providerForwarder(target)
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    let body: unknown
    try {
      body = JSON.parse(await readBody(request))
    } catch {
      return reply(200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })
    }
    const calls = (Array.isArray(body) ? body : [body]) as JsonRpcCall[]
    const answers: unknown[] = []
    let status = 200
    for (const call of calls) {
      const answer = await proxyCall(engine, upstream, call)
      if (answer === 'hang') return // the connection stays open until close()
      if (typeof answer === 'number') status = answer
      else answers.push(answer)
    }
    if (status !== 200) return reply(status, { error: `faulty chain: HTTP ${status}` })
    reply(200, Array.isArray(body) ? answers : answers[0])
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    ...engine.controls,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}

type JsonRpcCall = { jsonrpc?: string; id?: unknown; method?: unknown; params?: unknown }
type Forward = (call: JsonRpcCall) => Promise<unknown>

/** One call through the proxy: its JSON-RPC answer, an HTTP status, or `hang`. */
async function proxyCall(
  engine: FaultEngine,
  upstream: Forward,
  call: JsonRpcCall,
): Promise<unknown | number | 'hang'> {
  const id = call.id ?? null
  const method = typeof call.method === 'string' ? call.method : ''
  const params = Array.isArray(call.params) ? call.params : []
  const { fault, record } = engine.decide(method, params)
  if (fault?.kind === 'hang') return 'hang'
  if (fault?.kind === 'swallow' && method === 'eth_sendRawTransaction')
    return { jsonrpc: '2.0', id, result: keccak256(params[0] as Hex) }
  if (fault?.kind === 'latency') await sleep(fault.ms)
  const forward = forwards(fault)
  const answer = forward ? await upstream({ jsonrpc: '2.0', id, method, params }) : undefined
  record.forwarded = forward
  if (!fault || fault.kind === 'latency' || fault.kind === 'swallow') return answer
  if (fault.kind === 'status') return fault.status
  return { jsonrpc: '2.0', id, error: { code: fault.code, message: fault.message } }
}

/** Whether the node sees the call: no fault, a delay, a lost answer, or a swallow of anything but a send. */
function forwards(fault: Fault | undefined): boolean {
  if (!fault || fault.kind === 'latency' || fault.kind === 'swallow') return true
  return fault.kind !== 'hang' && fault.after === true
}

function urlForwarder(url: string): Forward {
  return async (call) => {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(call),
      })
      return await response.json()
    } catch {
      // The node itself is away: say so as a gateway would (viem sees a 502 and retries).
      return { jsonrpc: '2.0', id: call.id, error: { code: -32603, message: 'upstream unreachable' } }
    }
  }
}

function providerForwarder(provider: Provider): Forward {
  return async ({ id, method, params }) => {
    try {
      return {
        jsonrpc: '2.0',
        id,
        result: (await provider.request({ method: String(method), params })) ?? null,
      }
    } catch (error) {
      const { code = -32603, message = 'Internal error', data } = error as RpcError
      return { jsonrpc: '2.0', id, error: { code, message, data } }
    }
  }
}

type FaultEngine = {
  decide(method: string, params: readonly unknown[]): { fault: Fault | undefined; record: FaultRecord }
  controls: FaultyChain
}

function faultEngine(options: FaultyChainOptions): FaultEngine {
  let plan: FaultPlan = options.plan ?? []
  let seen = new Map<FaultRule, { matched: number; faulted: number }>()
  const random = seededRandom(options.seed ?? 1)
  const log: FaultRecord[] = []

  function fromRules(rules: readonly FaultRule[], method: string): Fault | undefined {
    for (const rule of rules) {
      if (!matches(rule.method, method)) continue
      const tally = seen.get(rule) ?? { matched: 0, faulted: 0 }
      seen.set(rule, tally)
      tally.matched++
      if (tally.matched <= (rule.skip ?? 0)) continue
      if (rule.times !== undefined && tally.faulted >= rule.times) continue
      // Draw for every eligible call, faulted or not, so one seed gives one sequence.
      if (random() >= (rule.probability ?? 1)) continue
      tally.faulted++
      return rule.fault
    }
    return undefined
  }

  return {
    decide(method, params) {
      const index = log.length
      const fault =
        typeof plan === 'function' ? plan({ method, params, index, random }) : fromRules(plan, method)
      const record: FaultRecord = { index, method, forwarded: false, ...(fault ? { fault: fault.kind } : {}) }
      log.push(record)
      return { fault, record }
    },
    controls: {
      log,
      setPlan(next) {
        plan = next
        seen = new Map()
      },
      count(filter = {}) {
        return log.filter(
          (entry) =>
            entry.fault !== undefined &&
            (filter.fault === undefined || entry.fault === filter.fault) &&
            (filter.method === undefined || entry.method === filter.method),
        ).length
      },
    },
  }
}

function matches(selector: FaultRule['method'], method: string): boolean {
  if (selector === undefined) return true
  if (typeof selector === 'string') return selector === method
  if (typeof selector === 'function') return selector(method)
  return selector.includes(method)
}

/** mulberry32: a small seeded PRNG, enough to make fault sequences repeatable. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * An AgentWallet whose chain `devnet` is reached over HTTP through a fault proxy in front of the
 * devnet (`faultyRpcServer`, its plan set by the test), on memory storage with no default rules, and
 * a tracker quick enough for a test: a pass every 20 ms, a tx unseen for 200 ms broadcast again.
 * @example const { proxy, aw } = await agentWalletBehindFaultyRpc(devnet, { seed: 42 })
 */
export async function agentWalletBehindFaultyRpc(
  devnet: Devnet,
  options: { seed: number },
): Promise<{ proxy: FaultyRpcServer; aw: AgentWallet }> {
  const proxy = await faultyRpcServer(devnet.provider, { seed: options.seed })
  const aw = await createAgentWallet({
    chains: { devnet: { rpcUrl: proxy.url, chainId: devnet.chain.id, contracts: devnet.addressBook } },
    storage: memoryStorage(),
    defaultTenantRules: [],
    trackerIntervalMs: 20,
    rebroadcastAfterMs: 200,
    checkOperations: true,
  })
  return { proxy, aw }
}

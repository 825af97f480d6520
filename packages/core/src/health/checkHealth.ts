import { z } from 'zod'
import type { RpcEndpoint } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { isAgentWalletError } from '../errors/baseError.js'
import { readChainHead, rpcEndpointsOf } from './readChainHead.js'

/** Why a probe failed: a code, never an error's text (an RPC URL in a message may carry its API key). */
const probeError = z.enum(['timeout', 'unreachable', 'chain_unavailable', 'vault_unavailable', 'internal'])
export type ProbeError = z.infer<typeof probeError>

const storageHealthSchema = z.object({
  name: z.string(),
  reachable: z.boolean(),
  latencyMs: z.number(),
  error: probeError.optional(),
})

const vaultHealthSchema = z.object({
  name: z.string(),
  reachable: z.boolean(),
  latencyMs: z.number(),
  error: probeError.optional(),
})

/** One RPC URL of a chain (scheme and host only: keys in paths and queries never show). */
const rpcHealthSchema = z.object({
  url: z.string(),
  reachable: z.boolean(),
  latencyMs: z.number(),
  error: probeError.optional(),
})

const chainHealthSchema = z.object({
  name: z.string(),
  chainId: z.number().int(),
  /** Whether readiness needs this chain (every chain unless the operator named a set). */
  required: z.boolean(),
  reachable: z.boolean(),
  /** The latest block the node reported, null when it did not answer. */
  headBlock: z.number().int().nullable(),
  /** Seconds since that block's timestamp (0 when it is ahead of this clock), null when unknown. */
  headAgeSeconds: z.number().int().nullable(),
  latencyMs: z.number(),
  error: probeError.optional(),
  /** Each RPC URL probed on its own, for a chain configured by URL: the chain is up while one is. */
  rpcs: z.array(rpcHealthSchema).optional(),
})

/** What `checkHealth` reports: storage and every chain, and whether every required part is up. */
export const healthReportSchema = z.object({
  ready: z.boolean(),
  storage: storageHealthSchema,
  /** The key vault: a vault outside the process (an HSM, a KMS) is probed; one in memory is always up. */
  vault: vaultHealthSchema,
  chains: z.array(chainHealthSchema),
})
export type HealthReport = z.infer<typeof healthReportSchema>

export type CheckHealthOptions = {
  /** Each probe's bound, ms (default 2000): a hung RPC or database answers `timeout`, not never. */
  timeoutMs?: number | undefined
  /** Chains readiness needs (default: every configured chain); the others are reported only. */
  requiredChains?: readonly string[] | undefined
}

/**
 * Probes the storage (one read) and each chain (its latest block) at once, each bounded by a
 * timeout, and says whether every required part answered.
 * @example const { ready, chains } = await checkHealth(ctx, { timeoutMs: 1000 })
 */
export async function checkHealth(
  ctx: AgentWalletContext,
  options: CheckHealthOptions = {},
): Promise<HealthReport> {
  const timeoutMs = options.timeoutMs ?? 2_000
  const required = new Set(options.requiredChains ?? ctx.chains.list().map((chain) => chain.name))
  const storageProbe = probe(timeoutMs, () => ctx.storage.get('tenants', 'health-probe'))
  const chainProbes = ctx.chains.list().map(async (info) => {
    const rpcList = rpcEndpointsOf(ctx.chains, info.name)
    const [outcome, rpcs] = await Promise.all([
      probe(timeoutMs, () => readChainHead(ctx.chains, info.name)),
      rpcList && Promise.all(rpcList.map((rpc) => probeRpc(timeoutMs, rpc))),
    ])
    const head = outcome.value
    const nowSeconds = Math.floor(ctx.now().getTime() / 1000)
    return {
      name: info.name,
      chainId: info.chainId,
      required: required.has(info.name),
      reachable: outcome.error === undefined,
      headBlock: head ? Number(head.number) : null,
      headAgeSeconds: head?.timestamp === undefined ? null : Math.max(0, nowSeconds - Number(head.timestamp)),
      latencyMs: outcome.latencyMs,
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(rpcs ? { rpcs } : {}),
    }
  })
  const vaultProbe = probe(timeoutMs, async () => ctx.vault.probe?.())
  const [storageOutcome, vaultOutcome, chains] = await Promise.all([
    storageProbe,
    vaultProbe,
    Promise.all(chainProbes),
  ])
  const storage = {
    name: ctx.storage.name,
    reachable: storageOutcome.error === undefined,
    latencyMs: storageOutcome.latencyMs,
    ...(storageOutcome.error ? { error: storageOutcome.error } : {}),
  }
  const vault = {
    name: ctx.vault.name,
    reachable: vaultOutcome.error === undefined,
    latencyMs: vaultOutcome.latencyMs,
    ...(vaultOutcome.error ? { error: vaultOutcome.error } : {}),
  }
  const ready =
    storage.reachable && vault.reachable && chains.every((chain) => chain.reachable || !chain.required)
  return { ready, storage, vault, chains }
}

async function probeRpc(timeoutMs: number, rpc: RpcEndpoint) {
  const outcome = await probe(timeoutMs, () => rpc.client.getBlockNumber({ cacheTime: 0 }))
  return {
    url: rpc.url,
    reachable: outcome.error === undefined,
    latencyMs: outcome.latencyMs,
    ...(outcome.error ? { error: outcome.error } : {}),
  }
}

type Outcome<T> = { value?: T | undefined; error?: ProbeError | undefined; latencyMs: number }

/** Runs `read`, answering within `timeoutMs` whatever it does; the late answer of a hung call is dropped. */
async function probe<T>(timeoutMs: number, read: () => Promise<T>): Promise<Outcome<T>> {
  const started = performance.now()
  const latencyMs = () => Math.round((performance.now() - started) * 10) / 10
  let timer: ReturnType<typeof setTimeout> | undefined
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs)
  })
  try {
    const settled = await Promise.race([
      Promise.resolve()
        .then(read)
        .then(
          (value) => ({ value }),
          (error: unknown) => ({ error: classify(error) }),
        ),
      timedOut,
    ])
    if (settled === 'timeout') return { error: 'timeout', latencyMs: latencyMs() }
    return { ...settled, latencyMs: latencyMs() }
  } finally {
    clearTimeout(timer)
  }
}

function classify(error: unknown): ProbeError {
  if (isAgentWalletError(error, 'chain_unavailable')) return 'chain_unavailable'
  if (isAgentWalletError(error, 'vault_unavailable')) return 'vault_unavailable'
  if (isAgentWalletError(error)) return 'internal'
  return 'unreachable'
}

import {
  type AgentWallet,
  BaseError,
  checkHealth,
  type HealthReport,
  healthReportSchema,
} from '@agentwallet/core'
import { z } from 'zod'
import { statusByCode } from '../http/statusByCode.js'
import { defineRoute, type RouteSpec } from './defineRoute.js'

export type HealthOptions = {
  /**
   * Chains readiness needs (default: every configured chain). A chain left out is still probed and
   * reported, but its RPC being down does not take the replica out of the balancer.
   */
  requiredChains?: readonly string[] | undefined
  /** Bound of each probe, ms (default 2000). */
  timeoutMs?: number | undefined
  /** A report is reused this long, ms (default 1000), and concurrent checks share one probe. */
  reuseMs?: number | undefined
}

export type HealthRouteOptions = HealthOptions & {
  agentWallet: AgentWallet
  startedAt: Date
  version: string
}

const processFields = {
  version: z.string(),
  uptimeSeconds: z.number().int(),
}
const readinessSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  ...processFields,
  /** The audit trail's checkpoint key (raw Ed25519, hex), to verify an export against; null: no trail. */
  auditPublicKey: z.string().nullable(),
  ...healthReportSchema.shape,
})

/**
 * Public probes for load balancers and orchestrators (no key): `/health/live` (the process answers,
 * no I/O), `/health/ready` (storage and the required chains answer, else 503 `not_ready`) and
 * `/health` (the same as ready: the check most balancers were pointed at).
 * @example routes.push(...healthRoutes({ agentWallet, startedAt, version: '0.1.0' }))
 */
export function healthRoutes(options: HealthRouteOptions): RouteSpec[] {
  assertKnownChains(options.agentWallet, options.requiredChains)
  const report = sharedProbe(
    () =>
      checkHealth(options.agentWallet.context, {
        timeoutMs: options.timeoutMs,
        requiredChains: options.requiredChains,
      }),
    options.reuseMs ?? 1_000,
  )
  const uptimeSeconds = () => Math.floor((Date.now() - options.startedAt.getTime()) / 1000)
  const readiness = async () => {
    const { ready, ...parts } = await report()
    const auditPublicKey = options.agentWallet.context.options.audit?.signer.publicKey ?? null
    const fields = {
      version: options.version,
      uptimeSeconds: uptimeSeconds(),
      auditPublicKey,
      ready,
      ...parts,
    }
    if (ready) return { body: { success: true, status: 'ok', ...fields } }
    const down = [
      ...(parts.storage.reachable ? [] : ['storage']),
      ...(parts.vault.reachable ? [] : ['vault']),
      ...parts.chains.filter((chain) => chain.required && !chain.reachable).map((chain) => chain.name),
    ]
    return {
      status: statusByCode.not_ready,
      body: {
        success: false,
        error: {
          code: 'not_ready',
          message: `Not ready: ${down.map((part) => (part === 'storage' || part === 'vault' ? part : `chain "${part}"`)).join(', ')} not answering`,
          details: { down },
        },
        status: 'unavailable',
        ...fields,
      },
    }
  }
  return [
    defineRoute({
      method: 'get',
      path: '/health',
      summary:
        'Health: storage and every chain probed (head block and its age); 503 not_ready when a required part is down (no API key)',
      auth: 'public',
      output: readinessSchema,
      errorAnswer: { code: 'not_ready', output: readinessSchema },
      handler: readiness,
    }),
    defineRoute({
      method: 'get',
      path: '/health/live',
      summary: 'Liveness: the process answers; touches neither storage nor chains (no API key)',
      auth: 'public',
      output: z.object({ status: z.literal('ok'), ...processFields }),
      handler: async () => ({
        body: { success: true, status: 'ok', version: options.version, uptimeSeconds: uptimeSeconds() },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/health/ready',
      summary:
        'Readiness: storage and the required chains answer within the probe timeout; else 503 not_ready naming them (no API key)',
      auth: 'public',
      output: readinessSchema,
      errorAnswer: { code: 'not_ready', output: readinessSchema },
      handler: readiness,
    }),
  ]
}

/**
 * One probe at a time, its report reused for `reuseMs` after it settles: a flood of unauthenticated
 * health checks costs the database and the RPC one read each per period, not one per request.
 */
function sharedProbe(run: () => Promise<HealthReport>, reuseMs: number): () => Promise<HealthReport> {
  let current: Promise<HealthReport> | undefined
  let running = false
  let settledAt = 0
  return () => {
    if (current && (running || Date.now() - settledAt < reuseMs)) return current
    running = true
    current = run().finally(() => {
      running = false
      settledAt = Date.now()
    })
    return current
  }
}

function assertKnownChains(agentWallet: AgentWallet, required: readonly string[] | undefined): void {
  const known = agentWallet.context.chains.list().map((chain) => chain.name)
  const unknown = (required ?? []).filter((name) => !known.includes(name))
  if (unknown.length > 0)
    throw new BaseError(
      'validation_failed',
      `Readiness names chains that are not configured: ${unknown.join(', ')}`,
      {
        details: { unknown, configured: known },
      },
    )
}

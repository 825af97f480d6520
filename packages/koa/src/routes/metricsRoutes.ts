import { createHash, timingSafeEqual } from 'node:crypto'
import { type AgentWallet, collectMetrics, type MetricFamily } from '@agentwallet/core'
import { expositionContentType, renderExposition } from '../metrics/renderExposition.js'
import { defineRoute, type RouteSpec } from './defineRoute.js'

export type MetricsRouteOptions = {
  agentWallet: AgentWallet
  /** The operator's scrape token (`AGENTWALLET_METRICS_TOKEN`): `Authorization: Bearer <token>`. */
  token: string
  /** This process's own families (HTTP, process, events), read at each scrape. */
  processFamilies: () => MetricFamily[]
  /** Told when the storage gauges cannot be read; the scrape still answers, with storage_up 0. */
  onStorageError?: ((error: unknown) => void) | undefined
}

const digest = (text: string) => createHash('sha256').update(text).digest()

/**
 * `GET /metrics`: the Prometheus text exposition of this process's counters and the deployment's
 * storage gauges. Authenticated by its own bearer token, never an API key: a scraper holds no key
 * that could move money, and the counts span every tenant, which no tenant's admin may see.
 * @example routes.push(...metricsRoutes({ agentWallet, token, processFamilies }))
 */
export function metricsRoutes(options: MetricsRouteOptions): RouteSpec[] {
  const expected = digest(options.token)
  return [
    defineRoute({
      method: 'get',
      path: '/metrics',
      summary:
        'Prometheus metrics (text format 0.0.4): aggregate counts only, no ids, keys or addresses. Takes the operator metrics token as a bearer token, not an API key',
      auth: 'bearer',
      // Comparing digests keeps the comparison constant-time whatever the length sent.
      verifyBearer: (token) => timingSafeEqual(digest(token), expected),
      produces: expositionContentType,
      handler: async () => {
        const started = performance.now()
        const storage = await collectMetrics(options.agentWallet.context).then(
          (families) => ({ up: 1, families }),
          (error: unknown) => {
            options.onStorageError?.(error)
            return { up: 0, families: [] as MetricFamily[] }
          },
        )
        const scrape: MetricFamily[] = [
          {
            name: 'agentwallet_metrics_storage_up',
            help: '1 when this scrape read the storage gauges, 0 when storage failed (they are then left out).',
            type: 'gauge',
            samples: [{ value: storage.up }],
          },
          {
            name: 'agentwallet_metrics_storage_read_seconds',
            help: 'Time this scrape spent reading the storage gauges.',
            type: 'gauge',
            samples: [{ value: (performance.now() - started) / 1000 }],
          },
        ]
        const vault = vaultFamilies(options.agentWallet)
        return {
          body: renderExposition([
            ...storage.families,
            ...scrape,
            ...vault,
            // This process's screening answers and outages, by source.
            ...options.agentWallet.context.screening.counts.families(),
            ...options.processFamilies(),
          ]),
        }
      },
    }),
  ]
}

/** The vault's own counters (`KeyVault.stats`), e.g. an HSM's signatures and the bad ones it retried. */
function vaultFamilies(agentWallet: AgentWallet): MetricFamily[] {
  const { vault } = agentWallet.context
  return Object.entries(vault.stats?.() ?? {}).map(([name, value]) => ({
    name: `agentwallet_vault_${name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}_total`,
    help: `Counted by the key vault since this process started (${name}; see the vault's documentation).`,
    type: 'counter',
    samples: [{ labels: { vault: vault.name }, value }],
  }))
}

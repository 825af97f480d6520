/*
 * The edge's own routes (health, onboarding, the document) are not operations of core's table, so
 * nothing declares their answers: these types are the few the client keeps by hand, and the
 * round-trip test reads each field back from a running server.
 */

/** A chain the server serves. */
export type ChainInfo = { name: string; chainId: number }

/** How one part answered the server's probe; `error` is a code, never a message. */
type PartHealth = {
  reachable: boolean
  latencyMs: number
  error?: 'timeout' | 'unreachable' | 'chain_unavailable' | 'internal'
}

/**
 * `GET /health` (as `/health/ready`): storage and every chain probed. When a required part is down
 * the server answers 503 and `health()` throws `not_ready`, its `details.down` naming the parts.
 */
export type HealthAnswer = {
  status: 'ok'
  version: string
  uptimeSeconds: number
  ready: boolean
  storage: PartHealth & { name: string }
  chains: (ChainInfo &
    PartHealth & { required: boolean; headBlock: number | null; headAgeSeconds: number | null })[]
}

/** `GET /onboarding`: what a first caller needs. */
export type OnboardingAnswer = {
  service: string
  chains: ChainInfo[]
  auth: { header: string; roles: Record<string, string>; approvals: string; adminKey: string }
  steps: { title: string; command: string }[]
  docs: { openapi: string; health: string }
}

/** `GET /openapi.json`: an OpenAPI 3.1 document (`paths` keyed by template, e.g. `/wallet/{wallet}/send`). */
export type OpenApiDocument = {
  openapi: string
  info: { title: string; version: string; description?: string }
  paths: Record<string, Partial<Record<'get' | 'post' | 'delete', Record<string, unknown>>>>
  [field: string]: unknown
}

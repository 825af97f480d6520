import type { AgentWallet, AgentWalletSession, Principal } from '@agentwallet/core'
import type { Logger } from 'pino'

/** What the middleware chain puts on `ctx.state` for handlers. */
export type AppState = {
  requestId: string
  /** The matched route's template (`/wallet/:address/send`), set by `mountRoutes`; for metrics. */
  route?: string | undefined
  principal?: Principal | undefined
  session?: AgentWalletSession | undefined
  body?: unknown
}

/** The services the app is built over (passed to `createApp`, never imported globally). */
export type AppServices = {
  agentWallet: AgentWallet
  logger: Logger
  startedAt: Date
}

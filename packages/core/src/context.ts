import type { AuditOptions } from './audit/auditOptions.js'
import type { Bundler, TenantPaymaster } from './bundler/types.js'
import type { ChainProvider } from './chain/types.js'
import type { QuoteSource } from './defi/quoteSource.js'
import type { EventBus } from './events/eventBus.js'
import type { SkippedSteps } from './metrics/skippedSteps.js'
import type { PriceFeedMaxAge } from './policy/priceFeedMaxAge.js'
import type { PolicyEngine } from './policy/types.js'
import type { Screening } from './screening/screening.js'
import type { EventListenerSet } from './storage/eventListeners.js'
import type { Storage } from './storage/types.js'
import type { Carriers } from './transactions/carrier.js'
import type { SecretSealer } from './vault/secretSealer.js'
import type { KeyVault } from './vault/types.js'
import type { WebhookOptions } from './webhooks/webhookOptions.js'

/** Settings core actions read; defaults are filled by `createAgentWallet`. */
export type CoreOptions = {
  /** How long a paused intent waits for a human (default 24 h). */
  approvalTtlMs: number
  /** Rules a new tenant starts with (DESIGN §5). */
  defaultTenantRules: readonly { id?: string; type: string; [field: string]: unknown }[]
  /** How often the tracker polls receipts and sweeps expired approvals. */
  trackerIntervalMs: number
  /** A signed tx the node has not seen for this long is broadcast again. */
  rebroadcastAfterMs: number
  /**
   * A submitted tx still unmined this long after its last broadcast, priced below what the chain
   * asks now, is replaced at the same nonce with fees raised (`false`: never).
   */
  replaceStuckAfterMs: number | false
  /** Replacement fees never exceed the first signature's `maxFeePerGas` times this. */
  maxFeeBumpMultiplier: number
  /**
   * Blocks after which a mined tx is final on every chain that configures none of its own
   * (`chains.<name>.finalityDepth`); undefined: each chain's default (`defaultFinalityDepth`).
   */
  finalityDepth?: number | undefined
  /** How old a price feed's answer may be when a USD rule values an intent. */
  priceFeedMaxAge: PriceFeedMaxAge
  /** Operator-configured swap quote sources (e.g. 0x-style aggregator APIs), asked beside the address book's venues. */
  quoteSources?: readonly QuoteSource[] | undefined
  webhooks: WebhookOptions
  /** The audit trail (docs/security.md): its signing key and checkpoint interval; absent: no trail. */
  audit?: AuditOptions | undefined
  /**
   * Receives errors of background work that have no record to go on: a tracker pass, a background
   * operation whose failure storage would not record (default: ignored).
   */
  onBackgroundError?: ((error: unknown) => void) | undefined
  /**
   * Hold every operation to its declaration (tests): an answer outside its output schema, or an
   * error code it does not declare, fails as `internal` instead of passing silently.
   */
  checkOperations?: boolean | undefined
}

/**
 * Everything an action needs, passed first (viem style): `sendTransaction(ctx, principal, params)`.
 * Built once by the composition root; nothing in core reaches for globals or env.
 */
export type AgentWalletContext = {
  storage: Storage
  /**
   * Storage's committed batches for core's own listeners (the bus, the audit checkpointer, the
   * webhook worker): one subscription and one copy per batch, shared by listeners that only read it.
   */
  commits: Pick<EventListenerSet, 'add'>
  vault: KeyVault
  /**
   * Seals secrets core keeps at rest (webhook signing secrets) with the master key; undefined when
   * durable storage runs without a master key (a caller-supplied vault), where sealing is refused.
   */
  secrets: SecretSealer | undefined
  chains: ChainProvider
  policy: PolicyEngine
  /** Who counterparties are (`screen_counterparties` rules): the operator lists, then configured sources. */
  screening: Screening
  bus: EventBus
  options: CoreOptions
  now: () => Date
  newId: (prefix: string) => string
  /**
   * The Bundler that carries a tenant's user operations on a chain (smart wallets); set by the
   * composition root (default: the tenant's relayer, `relayerBundler`).
   */
  bundlerOf?: ((tenantId: string, chain: string) => Bundler) | undefined
  /**
   * The ways a record's transaction reaches the chain (`carrierOf`): the wallet's lane, a user
   * operation, the x402 payee. The money path asks them; set by the composition root.
   */
  carriers: Carriers
  /** The tracker's steps a failed chain call skipped, counted for `/metrics` (`skippedSteps`). */
  skipped: SkippedSteps
  /** The tenant's verifying paymaster on a chain, when the operator configured one (sponsored gas). */
  paymasterOf?: ((tenantId: string, chain: string) => TenantPaymaster | undefined) | undefined
}

import { randomBytes, randomUUID } from 'node:crypto'
import { expireApprovals } from './approvals/resolveApproval.js'
import type { AuditOptions } from './audit/auditOptions.js'
import { auditSigner } from './audit/auditSigner.js'
import { tenantOfAuditStream } from './audit/auditStream.js'
import { recordedSpendsMemory } from './audit/recordedSpends.js'
import { startAuditCheckpoints } from './audit/startAuditCheckpoints.js'
import type { AuditAnchorOptions, AuditTimestampOptions } from './auditAnchors/auditAnchorOptions.js'
import { startAuditAnchors } from './auditAnchors/startAuditAnchors.js'
import type { Bundler, TenantPaymaster } from './bundler/types.js'
import type { ChainProvider } from './chain/types.js'
import { type ChainConfig, viemChainProvider } from './chain/viemChainProvider.js'
import type { AgentWalletContext, CoreOptions } from './context.js'
import type { QuoteSource } from './defi/quoteSource.js'
import { trackedSwap } from './defi/trackSwap.js'
import { ensRegistration } from './ens/ensRegistration.js'
import { BaseError } from './errors/baseError.js'
import { toDomainEvent } from './events/appendEvent.js'
import { EventBus } from './events/eventBus.js'
import { identityRegistration } from './identity/identityRegistration.js'
import { skippedSteps } from './metrics/skippedSteps.js'
import { registerOperations, resumeOperations, stopOperations } from './operations/backgroundOperations.js'
import { payeeCarrier } from './payments/payeeCarrier.js'
import { defaultTenantRules } from './policy/defaultRules.js'
import { type PriceFeedMaxAge, resolvePriceFeedMaxAge } from './policy/priceFeedMaxAge.js'
import { rulesPolicyEngine } from './policy/rulesPolicyEngine.js'
import type { PolicyEngine } from './policy/types.js'
import { authenticate } from './principals/authenticate.js'
import {
  type BootstrapAdminParameters,
  type BootstrapAdminReturnType,
  bootstrapAdmin,
} from './principals/bootstrapAdmin.js'
import { localPrincipal, type Principal } from './principals/types.js'
import { cachedScreening } from './screening/cachedScreening.js'
import { listScreening } from './screening/listScreening.js'
import type { Screening } from './screening/screening.js'
import { screeningCounts } from './screening/screeningCounts.js'
import type { ScreeningSource } from './screening/types.js'
import { type AgentWalletSession, createSession } from './session.js'
import { relayerBundler } from './smartWallets/relayerBundler.js'
import { userOperationCarrier } from './smartWallets/userOperationCarrier.js'
import { startTracker, type Tracker } from './startTracker.js'
import { eventListeners } from './storage/eventListeners.js'
import { memoryStorage } from './storage/memoryStorage.js'
import type { Storage } from './storage/types.js'
import { withWriteIds } from './storage/withWriteIds.js'
import { laneCarrier } from './transactions/laneCarrier.js'
import { solanaCarrier } from './transactions/solanaCarrier.js'
import { settleSubmitted } from './transactions/submittedBatch.js'
import { trackTransactions } from './transactions/trackTransactions.js'
import { assertMasterKey } from './vault/assertMasterKey.js'
import { localKeyVault } from './vault/localKeyVault.js'
import { parseMasterKey } from './vault/masterKey.js'
import { secretSealer } from './vault/secretSealer.js'
import { storageKeyRecordStore } from './vault/storageKeyRecordStore.js'
import type { KeyVault } from './vault/types.js'
import { sealLegacyWebhookSecrets } from './webhooks/sealLegacyWebhookSecrets.js'
import { startWebhookWorker, type WebhookWorker } from './webhooks/startWebhookWorker.js'
import { resolveWebhookOptions, type WebhookOptions } from './webhooks/webhookOptions.js'

export type AgentWalletConfig = {
  /** Named chains, or a ChainProvider of your own. */
  chains: ChainProvider | Record<string, ChainConfig>
  defaultChain?: string | undefined
  /** Default: in-memory storage (nothing survives the process). */
  storage?: Storage | undefined
  /**
   * Default: the local vault over `storage`, sealed with `masterKey`. Without a master key and
   * with non-durable storage, an ephemeral random master key is used (keys die with the process anyway).
   */
  vault?: KeyVault | undefined
  /**
   * Seals wallet keys (default vault) and webhook signing secrets at rest. Durable storage with your
   * own vault and no master key works, but refuses webhook subscriptions (nothing to seal them with).
   */
  masterKey?: Uint8Array | string | undefined
  /** Default: the rules engine of DESIGN §5. */
  policy?: PolicyEngine | undefined
  /**
   * Screening sources beside the operator lists (e.g. `blockaidScreening` from
   * `@agentwallet/screening-blockaid`), asked by `screen_counterparties` rules; each answer is reused
   * for `ttlMs` (default 5 minutes). The lists are always first, as source `lists`, and never cached.
   */
  screening?: { sources?: readonly ScreeningSource[] | undefined; ttlMs?: number | undefined } | undefined
  /** Rules a tenant starts with until an admin sets its own (default: `defaultTenantRules`). */
  defaultTenantRules?: CoreOptions['defaultTenantRules'] | undefined
  approvalTtlMs?: number | undefined
  trackerIntervalMs?: number | undefined
  rebroadcastAfterMs?: number | undefined
  /**
   * Replace a submitted tx that is still unmined this long after its last broadcast and priced below
   * the chain's current fees: same nonce and call, fees raised at least 12.5% (default 2 min; `false`: never).
   */
  replaceStuckAfterMs?: number | false | undefined
  /** Cap of replacement fees: the first `maxFeePerGas` times this (default 5). */
  maxFeeBumpMultiplier?: number | undefined
  /**
   * Blocks after which a mined tx is final, for every chain without its own
   * `chains.<name>.finalityDepth` (default per chain id: 64 on Ethereum, 10 on rollups, 3 on a devnet).
   * Until then the tracker re-checks its block and moves it back to `submitted` if it left the chain.
   */
  finalityDepth?: number | undefined
  /** Webhook delivery settings; the worker runs beside the tracker. */
  webhooks?: Partial<WebhookOptions> | undefined
  /** Start the receipt tracker, the webhook worker, and reconcile at creation (default true). */
  track?: boolean | undefined
  /**
   * Receives errors of background work that have no record to go on: tracker passes, a background
   * operation whose failure storage would not record (default: ignored). A step's error is
   * recorded on its operation's record and emitted as `operation.failed`.
   */
  onBackgroundError?: ((error: unknown) => void) | undefined
  /**
   * How old a price feed's answer may be when a USD rule (`asset: "usd"`) values an intent: seconds
   * by feed (`"USDC/USD"`, `"base:ETH/USD"`) over a default. Defaults: `defaultPriceFeedMaxAge`
   * (3900 s; 90 000 s for USDC, USDT and DAI). An older answer denies the intent.
   */
  priceFeedMaxAge?: Partial<PriceFeedMaxAge> | undefined
  /** Swap quote sources beside the address book's DEX venues, e.g. a 0x-style aggregator API. */
  quoteSources?: readonly QuoteSource[] | undefined
  /**
   * The audit trail (docs/security.md): `key` is the Ed25519 seed checkpoints are signed with (32
   * bytes, hex or base64; default: a random one for this process, so checkpoints verify only against
   * the key they carry), `checkpointEvery` entries between checkpoints (default 100). `false`: no trail.
   */
  audit?:
    | false
    | {
        key?: Uint8Array | string | undefined
        checkpointEvery?: number | undefined
        /**
         * Publish checkpoint heads on a chain (docs/security.md, "Anchors"): from this managed
         * wallet, every `every`-th checkpoint of each tenant.
         */
        anchor?: AuditAnchorOptions | undefined
        /** Ask this RFC 3161 timestamp authority for a token over each anchored head (docs/security.md). */
        timestamp?: AuditTimestampOptions | undefined
      }
    | undefined
  /** Clock, for tests of expiry and windows. */
  now?: (() => Date) | undefined
  /** Fail an operation whose answer or error breaks its declaration (for tests; see `callOperation`). */
  checkOperations?: boolean | undefined
  /**
   * The Bundler for a tenant's user operations on a chain (smart wallets); undefined or answering
   * undefined: the tenant's relayer account submits them (`relayerBundler`).
   */
  bundler?: ((target: { tenantId: string; chain: string }) => Bundler | undefined) | undefined
  /**
   * A tenant's verifying paymaster on a chain: its address and the vault key that is its
   * `verifyingSigner` (docs/smart-accounts.md, "Sponsored gas"). Its smart wallets' ops are sponsored
   * while the tenant's `sponsor_gas` rules leave room; undefined: every wallet pays its own gas.
   */
  paymaster?: ((target: { tenantId: string; chain: string }) => TenantPaymaster | undefined) | undefined
}

export type AgentWallet = AgentWalletSession & {
  context: AgentWalletContext
  bus: EventBus
  /** The same actions as another principal (an API key of a tenant, an approver). */
  as(principal: Principal): AgentWalletSession
  /** One tracker pass now: receipts, rebroadcasts, expiries (what the background loop runs). */
  reconcile(): Promise<void>
  /** The principal of a raw API key, or `unauthorized`. */
  authenticate(rawKey: string | undefined): Promise<Principal>
  /** First start: creates (or adopts) the root admin key when none exists. */
  bootstrapAdmin(parameters?: BootstrapAdminParameters): Promise<BootstrapAdminReturnType>
  close(): Promise<void>
}

/**
 * The composition root: wires storage, vault, chains and policy into bound actions, reconciles
 * what a previous process left unfinished, and starts the tracker.
 * @example
 * const aw = await createAgentWallet({ chains: { devnet: { provider: devnet.provider, chainId: 31337 } } })
 * const wallet = await aw.createWallet({ agentName: 'trader' })
 */
function resolveAuditOptions(audit: AgentWalletConfig['audit']): AuditOptions | undefined {
  if (audit === false) return undefined
  const key = audit?.key === undefined ? randomBytes(32) : parseMasterKey(audit.key)
  // An anchor writes three entries at most (its send's decision and signature, a timestamp): fewer
  // than a checkpoint's worth, so anchoring never triggers the next checkpoint on its own.
  if ((audit?.anchor || audit?.timestamp) && (audit.checkpointEvery ?? 100) < 4)
    throw new TypeError('audit.checkpointEvery must be at least 4 when checkpoints are anchored')
  return {
    signer: auditSigner(key),
    checkpointEvery: audit?.checkpointEvery ?? 100,
    spends: recordedSpendsMemory(),
  }
}

export async function createAgentWallet(config: AgentWalletConfig): Promise<AgentWallet> {
  const webhooks = resolveWebhookOptions(config.webhooks)
  // Transaction records carry a fresh id per write: a decision's audit entry tells the wallet's
  // unchanged spends from changed ones by it (`auditDecision`).
  const storage = withWriteIds(config.storage ?? memoryStorage(), ['transactions'], () => randomUUID())
  const chains = isChainProvider(config.chains)
    ? config.chains
    : viemChainProvider({ chains: config.chains, defaultChain: config.defaultChain })
  const masterKey = config.masterKey ?? ephemeralMasterKey(storage)
  // A caller's key is checked against the store before anything runs on it (an ephemeral key
  // seals nothing that outlives it). With its own vault, the vault's records are not ours to judge.
  if (config.masterKey !== undefined)
    await assertMasterKey(storage, {
      masterKey: parseMasterKey(config.masterKey),
      walletKeys: config.vault === undefined,
    })
  const commits = eventListeners({ shared: true })
  const ctx: AgentWalletContext = {
    storage,
    commits,
    vault: config.vault ?? defaultVault(storage, masterKey),
    secrets: masterKey === undefined ? undefined : secretSealer(masterKey),
    chains,
    policy: config.policy ?? rulesPolicyEngine(),
    screening: screeningOf(storage, config.screening),
    bus: new EventBus(),
    options: {
      approvalTtlMs: config.approvalTtlMs ?? 24 * 60 * 60 * 1000,
      defaultTenantRules: config.defaultTenantRules ?? defaultTenantRules,
      trackerIntervalMs: config.trackerIntervalMs ?? 500,
      rebroadcastAfterMs: config.rebroadcastAfterMs ?? 30_000,
      replaceStuckAfterMs: config.replaceStuckAfterMs ?? 120_000,
      maxFeeBumpMultiplier: config.maxFeeBumpMultiplier ?? 5,
      finalityDepth: config.finalityDepth,
      webhooks,
      priceFeedMaxAge: resolvePriceFeedMaxAge(config.priceFeedMaxAge),
      quoteSources: config.quoteSources ?? [],
      checkOperations: config.checkOperations ?? false,
      onBackgroundError: config.onBackgroundError,
      audit: resolveAuditOptions(config.audit),
    },
    now: config.now ?? (() => new Date()),
    newId: (prefix) => `${prefix}_${randomUUID().replaceAll('-', '')}`,
    bundlerOf: (tenantId, chain) =>
      config.bundler?.({ tenantId, chain }) ?? relayerBundler(ctx, { tenantId, chain }),
    paymasterOf: (tenantId, chain) => config.paymaster?.({ tenantId, chain }),
    carriers: {
      lane: laneCarrier(),
      user_operation: userOperationCarrier,
      payee: payeeCarrier,
      solana: solanaCarrier,
    },
    skipped: skippedSteps(chains.list().map((chain) => chain.name)),
  }
  // The multi-step operations: resumed at start, stopped at close, their steps' call refreshers
  // asked by `refreshCall` (a late approval, a stuck-tx replacement).
  registerOperations(ctx, [ensRegistration, identityRegistration, trackedSwap])
  // A subscriber's throw (the caller's own bus handler) is a background error: the commit is done,
  // and the batch's other events still reach every subscriber.
  // Core's listeners share one copy of each committed batch (`ctx.commits`); the bus's subscribers
  // get domain events built from it, never the audit entries.
  const unsubscribe = storage.onEvents((events) => commits.notify(events))
  commits.add((events) => {
    for (const event of events)
      if (tenantOfAuditStream(event.stream) === undefined)
        ctx.bus.publish(toDomainEvent(event), (error) => config.onBackgroundError?.(error))
  })
  const publish = config.audit ? { anchor: config.audit.anchor, timestamp: config.audit.timestamp } : {}
  const anchors =
    publish.anchor || publish.timestamp
      ? startAuditAnchors(ctx, publish, { onError: config.onBackgroundError })
      : undefined
  const checkpoints = ctx.options.audit
    ? startAuditCheckpoints(ctx, { onError: config.onBackgroundError, onCheckpoint: anchors?.checkpointed })
    : undefined
  const reconcile = async () => {
    await sealLegacyWebhookSecrets(ctx)
    await trackTransactions(ctx, { all: true })
    await expireApprovals(ctx)
    await resumeOperations(ctx)
  }
  let tracker: Tracker | undefined
  let webhookWorker: WebhookWorker | undefined
  if (config.track !== false) {
    await reconcile()
    tracker = startTracker(ctx, { onError: config.onBackgroundError })
    webhookWorker = startWebhookWorker(ctx, { onError: config.onBackgroundError })
  }
  return {
    ...createSession(ctx, localPrincipal),
    context: ctx,
    bus: ctx.bus,
    as: (principal) => createSession(ctx, principal),
    reconcile,
    authenticate: (rawKey) => authenticate(ctx, rawKey),
    bootstrapAdmin: (parameters) => bootstrapAdmin(ctx, parameters),
    async close() {
      // Stops every background operation of this context: ENS and identity registrations, swaps (resumable).
      await stopOperations(ctx)
      await tracker?.stop()
      await Promise.all(Object.values(ctx.carriers).map((carrier) => carrier.settle()))
      await settleSubmitted(ctx.storage)
      await webhookWorker?.stop()
      // Each tenant's head is anchored as it stands now (the anchors' sends are tracked on from the
      // next start); then, last, every entry the steps above wrote is covered by a signed checkpoint.
      if (anchors) {
        await anchors.settled()
        await checkpoints?.checkpointAll()
        await anchors.stop()
      }
      await checkpoints?.stop()
      unsubscribe()
      await chains.close?.()
    },
  }
}

function screeningOf(storage: Storage, config: AgentWalletConfig['screening']): Screening {
  const sources = [
    listScreening(storage),
    ...(config?.sources ?? []).map((source) => cachedScreening(source, { ttlMs: config?.ttlMs })),
  ]
  return { sources, counts: screeningCounts(sources.map((source) => source.name)) }
}

function isChainProvider(value: AgentWalletConfig['chains']): value is ChainProvider {
  return (
    typeof (value as ChainProvider).get === 'function' && typeof (value as ChainProvider).list === 'function'
  )
}

/** Without a master key, non-durable storage gets a random one: what it seals dies with the process anyway. */
function ephemeralMasterKey(storage: Storage): Uint8Array | undefined {
  return storage.capabilities.durable ? undefined : crypto.getRandomValues(new Uint8Array(32))
}

function defaultVault(storage: Storage, masterKey: Uint8Array | string | undefined): KeyVault {
  if (masterKey === undefined) {
    throw new BaseError('validation_failed', 'Durable storage needs a masterKey (or pass your own vault)', {
      details: { storage: storage.name },
    })
  }
  return localKeyVault({ masterKey, store: storageKeyRecordStore(storage) })
}

import type { Address } from 'viem'
import { chainInfoOf } from '../chain/chainInfoOf.js'
import type { ChainHandle, ChainProvider } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { fromStoredEffects } from '../effects/fromStoredEffects.js'
import type { Effects } from '../effects/types.js'
import { agentIdOf } from '../intents/agentIdOf.js'
import type { PolicyIntent } from '../intents/types.js'
import type { StorageReader } from '../storage/types.js'
import type { StoredUsd, TransactionRecord } from '../transactions/types.js'
import type { WalletRecord } from '../wallets/types.js'
import { agentSpends } from './agentSpends.js'
import { countedEffectsOf } from './countedEffects.js'
import { countedStatuses } from './countedStatuses.js'
import { counterpartyFacts } from './counterpartyFacts.js'
import { scopedRules } from './policyStore.js'
import { screeningFacts } from './screenIntent.js'
import type { PolicyContext, PolicyDecision, SpendEntry } from './types.js'
import { storedUsdOf, usdOfRecord, usdValuesOf } from './usdValuesOf.js'

/**
 * A decision, with the USD value the intent was judged at when a USD rule was in scope, the effects
 * it was judged by (each outflow valued, when a USD rule was), and the payee's verified ERC-8004
 * agent when an identity rule looked it up (all to store).
 */
export type IntentDecision = PolicyDecision & {
  usd?: StoredUsd | undefined
  effects?: Effects | undefined
  payeeAgent?: { agentId: string; registry: string } | undefined
  /**
   * What the pure engine was given, for the audit trail to re-run the decision offline; with each
   * counted spend's key when it was built from its record alone (no USD valuation): the record's
   * write (`writeKeyOf`), so the trail knows it unchanged without comparing it.
   */
  inputs?:
    | { intent: PolicyIntent; context: PolicyContext; recentKeys?: (string | undefined)[] | undefined }
    | undefined
}

/**
 * The decision as a transaction record keeps it (`policy`): history shows the deciding rule.
 * @example const record = { ...transaction, status: 'blocked', policy: recordedDecision(decision) }
 */
export function recordedDecision(decision: PolicyDecision): TransactionRecord['policy'] {
  return {
    decision: decision.decision,
    ruleId: decision.ruleId,
    ruleType: decision.ruleType,
    reason: decision.reason,
    details: decision.details,
  }
}

/**
 * Loads what the pure engine needs (rules, the wallet's counted spends in the window — and for the
 * agent's rules those of every wallet its key holds —, whether the
 * recipient is new; USD values from the price feeds, only when a rule asks for them) and
 * evaluates. Callers that act on the decision hold the wallet lock.
 * @example const decision = await evaluateIntent(ctx, wallet, intent)
 */
export async function evaluateIntent(
  ctx: AgentWalletContext,
  wallet: WalletRecord,
  intent: PolicyIntent,
  options: {
    excludeTransactionId?: string | undefined
    /** Where the wallet's spends are read (default the storage): `Storage.unsynced` under the lock of a send. */
    reader?: StorageReader | undefined
  } = {},
): Promise<IntentDecision> {
  const reader = options.reader ?? ctx.storage
  const now = ctx.now()
  const rules = await scopedRules(ctx, wallet.tenantId, wallet.id, wallet.ownerId)
  const lookbackMs = ctx.policy.lookbackMs(rules)
  // An agent's rules count one window over every wallet its key holds, on every chain.
  const agentLookbackMs = ctx.policy.lookbackMs(rules.filter(({ scope }) => scope === 'agent'))
  const [recent, agentRecent, pastSends] = await Promise.all([
    lookbackMs > 0
      ? reader.query('transactions', {
          where: { walletId: wallet.id, chain: intent.chain, status: countedStatuses },
          range: { field: 'createdAt', gte: new Date(now.getTime() - lookbackMs).toISOString() },
        })
      : Promise.resolve([]),
    agentLookbackMs > 0
      ? agentSpends(ctx, wallet, new Date(now.getTime() - agentLookbackMs), reader)
      : Promise.resolve(undefined),
    // One past send is enough, the latest first: a count read every send to this recipient (O(history)).
    reader.query('transactions', {
      where: { walletId: wallet.id, to: intent.to, status: ['submitted', 'confirmed'] },
      orderBy: 'createdAt',
      order: 'desc',
      limit: 1,
    }),
  ])
  const notThis = (record: TransactionRecord) => record.id !== options.excludeTransactionId
  const counted = recent.filter(notThis)
  const agentCounted = agentRecent?.filter(notThis) ?? []
  // Valuation happens here, before the pure engine, and only when a rule measures in dollars.
  const usd = ctx.policy.needsUsd?.(rules)
    ? await usdValuesOf(ctx, intent, [...counted, ...agentCounted])
    : undefined
  // The payee's ERC-8004 identity and reputation, only for a payment a rule asks about.
  const queries = intent.kind === 'x402_payment' ? ctx.policy.counterpartyQueries?.(rules) : undefined
  const counterparty = queries ? await counterpartyFacts(ctx, intent, queries) : undefined
  // Who every counterparty is, only when a rule screens; an outage under `closed` refuses here.
  const venues = venuesOn(ctx.chains, intent.chain)
  const screening = await screeningFacts(
    ctx,
    wallet.tenantId,
    intent,
    ctx.policy.screeningQuery?.(rules),
    venues,
  )
  const entryOf = (record: TransactionRecord, index: number): SpendEntry => {
    const effects = usd?.entries[index]?.effects ?? countedEffectsOf(record)
    return {
      asset: record.asset.address,
      amount: BigInt(record.amount),
      at: Date.parse(record.createdAt),
      to: record.to,
      ...(usd ? { usd: usd.entries[index]!.usd } : {}),
      ...(effects ? { effects } : {}),
    }
  }
  const entries = counted.map(entryOf)
  const agentEntries =
    agentRecent && agentCounted.map((record, index) => entryOf(record, counted.length + index))
  const effects: Effects | undefined =
    usd?.effects && intent.effects?.status === 'known'
      ? { ...intent.effects, effects: usd.effects }
      : intent.effects
  const judged = {
    ...intent,
    ...(usd ? { usd: usd.intent } : {}),
    ...(effects ? { effects } : {}),
    ...(counterparty ? { counterparty } : {}),
    ...(screening ? { screening } : {}),
  }
  const context: PolicyContext = {
    now,
    rules,
    recent: entries,
    ...(agentEntries ? { agentRecent: agentEntries } : {}),
    isNewRecipient: pastSends.length === 0,
    venues: venues,
  }
  const decision = ctx.policy.evaluate(judged, context)
  const stored = storedUsdOf(usd?.intent)
  return {
    ...decision,
    ...(stored ? { usd: stored } : {}),
    ...(effects ? { effects } : {}),
    ...(counterparty?.agentId && counterparty.registry
      ? { payeeAgent: { agentId: counterparty.agentId, registry: counterparty.registry } }
      : {}),
    inputs: {
      intent: judged,
      context,
      // Only the trail reads the keys: no string per counted spend when it is off.
      ...(usd || !ctx.options.audit ? {} : { recentKeys: counted.map(writeKeyOf) }),
    },
  }
}

/**
 * A counted spend's key: the write its record holds. The status and time of the write stand beside
 * the `writeId` for a replica of a version before `withWriteIds` (a rolling upgrade): it rewrites a
 * record keeping the `writeId` it read, and only a rewrite that also keeps the status within the
 * same millisecond would pass for the earlier write.
 */
function writeKeyOf(record: TransactionRecord): string | undefined {
  return record.writeId && `${record.writeId} ${record.status} ${record.updatedAt}`
}

/**
 * The routers of the chain `name` (`venuesOf`): an EVM address book's; a chain of another family
 * lists none (a Solana address book has mints and prices only).
 */
function venuesOn(chains: ChainProvider, name: string): Address[] {
  return chainInfoOf(chains, name).family === 'evm' ? venuesOf(chains.get(name)) : []
}

/**
 * The routers of the chain's address book: they pull a token only from the wallet that calls them,
 * in a call judged when made, so an allowance to one is not an outflow (docs/policy.md).
 */
export function venuesOf(chain: ChainHandle): Address[] {
  const { uniswapV2 = [], uniswapV3 = [] } = chain.contracts
  return [...uniswapV2, ...uniswapV3].map((venue) => venue.router)
}

/**
 * The policy intent a stored transaction stands for, with the effects it was judged by (absent for
 * a record made before effects were stored: `effectsOfRecord` predicts them).
 */
export function intentOf(record: TransactionRecord): PolicyIntent {
  return {
    kind: record.kind,
    chain: record.chain,
    from: record.from,
    to: record.to,
    asset: record.asset,
    amount: BigInt(record.amount),
    data: record.call.data,
    via: record.via,
    usd: usdOfRecord(record),
    payeeAgentId: agentIdOf(record.meta),
    ...(record.effects ? { effects: fromStoredEffects(record.effects) } : {}),
  }
}

import type { AgentWalletContext } from '../context.js'
import { scopedRules } from '../policy/policyStore.js'
import type { PolicyDecision, PolicyIntent, SpendEntry } from '../policy/types.js'
import type { WalletRecord } from '../wallets/types.js'
import { countedStatuses, type TransactionRecord } from './types.js'

/**
 * Loads what the pure engine needs (rules, the wallet's counted spends in the window, whether the
 * recipient is new) and evaluates. Callers that act on the decision hold the wallet lock.
 * @example const decision = await evaluateIntent(ctx, wallet, intent)
 */
export async function evaluateIntent(
  ctx: AgentWalletContext,
  wallet: WalletRecord,
  intent: PolicyIntent,
  options: { excludeTransactionId?: string | undefined } = {},
): Promise<PolicyDecision> {
  const now = ctx.now()
  const rules = await scopedRules(ctx, wallet.tenantId, wallet.id)
  const lookbackMs = ctx.policy.lookbackMs(rules)
  const [recent, pastSends] = await Promise.all([
    lookbackMs > 0
      ? ctx.storage.query<TransactionRecord>('transactions', {
          where: { walletId: wallet.id, chain: intent.chain, status: countedStatuses },
          range: { field: 'createdAt', gte: new Date(now.getTime() - lookbackMs).toISOString() },
        })
      : Promise.resolve([]),
    ctx.storage.count('transactions', {
      where: { walletId: wallet.id, to: intent.to, status: ['submitted', 'confirmed'] },
    }),
  ])
  const entries: SpendEntry[] = recent
    .filter((record) => record.id !== options.excludeTransactionId)
    .map((record) => ({
      asset: record.asset.address,
      amount: BigInt(record.amount),
      at: Date.parse(record.createdAt),
      to: record.to,
    }))
  return ctx.policy.evaluate(intent, { now, rules, recent: entries, isNewRecipient: pastSends === 0 })
}

/** The policy intent a stored transaction stands for. */
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
  }
}

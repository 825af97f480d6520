import type { Address } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { PolicyBlockedError } from '../errors/errors.js'
import type { PolicyIntent } from '../intents/types.js'
import { venuesOf } from '../policy/evaluateIntent.js'
import { scopedRules } from '../policy/policyStore.js'
import { screeningFacts } from '../policy/screenIntent.js'
import type { WalletRecord } from '../wallets/types.js'
import type { StoredSafeTx } from './safeTransaction.js'
import type { SafeTxPayment } from './safeTxPayment.js'

/**
 * Screens a Safe proposal's targets before its proposer signs the SafeTx: who it pays (or the contract
 * it calls) and the Safe, by the proposer's `screen_counterparties` rules. A block is `policy_blocked`
 * naming the list or source and reason; an outage under `onOutage: "closed"` is `screening_unavailable`.
 * A warning signs (its execution is judged again, paused for a human there). No rule: nothing is asked.
 * @example await screenProposal(ctx, wallet, chain, safe, tx, await safeTxPayment(chain, safe, tx))
 */
export async function screenProposal(
  ctx: AgentWalletContext,
  wallet: WalletRecord,
  chain: ChainHandle,
  safe: Address,
  tx: Pick<StoredSafeTx, 'to' | 'data'>,
  payment: SafeTxPayment,
): Promise<void> {
  const rules = await scopedRules(ctx, wallet.tenantId, wallet.id, wallet.ownerId)
  const screening = rules.filter(({ rule }) => rule.type === 'screen_counterparties')
  const query = ctx.policy.screeningQuery?.(screening)
  if (!query) return
  const intent: PolicyIntent = {
    kind: 'multisig',
    chain: chain.name,
    from: wallet.address,
    ...payment,
    data: tx.data,
  }
  const facts = await screeningFacts(ctx, wallet.tenantId, intent, query, venuesOf(chain))
  // The contract a token payment is written to is a target too, beside its recipient.
  const called =
    tx.to.toLowerCase() === payment.to.toLowerCase()
      ? undefined
      : await screeningFacts(ctx, wallet.tenantId, { ...intent, to: tx.to, data: undefined }, query)
  const judged = {
    ...intent,
    screening: {
      counterparties: [...(facts?.counterparties ?? []), ...(called?.counterparties ?? [])],
      outages: [...(facts?.outages ?? []), ...(called?.outages ?? [])],
    },
  }
  const decision = ctx.policy.evaluate(judged, {
    now: ctx.now(),
    rules: screening,
    recent: [],
    isNewRecipient: false,
    venues: venuesOf(chain),
  })
  if (decision.decision === 'deny')
    throw new PolicyBlockedError(decision.reason, {
      details: { ruleId: decision.ruleId, ruleType: decision.ruleType, safe, ...decision.details },
    })
}

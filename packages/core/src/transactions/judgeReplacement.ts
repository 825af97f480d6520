import type { AgentWalletContext } from '../context.js'
import { PolicyBlockedError } from '../errors/errors.js'
import type { PolicyIntent } from '../intents/types.js'
import { auditDecision } from '../policy/auditDecision.js'
import { evaluateIntent, intentOf } from '../policy/evaluateIntent.js'
import type { WalletRecord } from '../wallets/types.js'
import type { SubmittedTransaction } from './types.js'

/** What a caller asks of a submitted tx: the same call with higher fees, or nothing in its place. */
export type ReplacementMode = 'speed_up' | 'cancel'

/**
 * The policy on a new signature, under the wallet lock: a speed-up is its intent judged again (its
 * own reservation left out of the window totals, so it is not counted twice), a cancel a transfer of
 * 0 to the wallet itself. A deny is `policy_blocked`; so is a rule asking for a human, since a
 * replacement cannot wait for one — unless it is a speed-up of an intent a human already approved.
 * Gas is counted by no rule, so higher fees change no total.
 * @example await judgeReplacement(ctx, wallet, record, 'speed_up')
 */
export async function judgeReplacement(
  ctx: AgentWalletContext,
  wallet: WalletRecord,
  record: SubmittedTransaction,
  mode: ReplacementMode,
): Promise<void> {
  const intent: PolicyIntent =
    mode === 'cancel'
      ? {
          kind: 'transfer',
          chain: record.chain,
          from: record.from,
          to: record.from,
          asset: { address: 'native', ...nativeOf(ctx, record.chain) },
          amount: 0n,
        }
      : intentOf(record)
  const decision = await evaluateIntent(ctx, wallet, intent, {
    excludeTransactionId: mode === 'speed_up' ? record.id : undefined,
  })
  // In a commit of its own, before the new signature is made or the request refused.
  await ctx.storage.transaction([], async (tx) =>
    auditDecision(ctx, tx, wallet.tenantId, decision, { walletId: wallet.id, transactionId: record.id }),
  )
  if (decision.decision === 'allow') return
  if (decision.decision === 'require_approval' && mode === 'speed_up' && record.approvalId) return
  const details = {
    ruleId: decision.ruleId,
    ruleType: decision.ruleType,
    transactionId: record.id,
    ...decision.details,
  }
  if (decision.decision === 'deny') throw new PolicyBlockedError(decision.reason, { details })
  throw new PolicyBlockedError(
    `This ${mode === 'cancel' ? 'cancel' : 'speed-up'} would need a human's approval, which a replacement cannot wait for: ${decision.reason}`,
    { details: { ...details, decision: 'approve' } },
  )
}

function nativeOf(ctx: AgentWalletContext, chainName: string) {
  const chain = ctx.chains.get(chainName)
  return { symbol: chain.nativeSymbol, decimals: chain.nativeDecimals }
}

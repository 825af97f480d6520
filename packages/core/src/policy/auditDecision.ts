import { appendAudit } from '../audit/appendAudit.js'
import { toAuditJson } from '../audit/auditJson.js'
import { encodeRecordedSpends } from '../audit/recordedSpends.js'
import type { AuditSubjects, DecisionPayload } from '../audit/types.js'
import type { AgentWalletContext } from '../context.js'
import type { StorageTx } from '../storage/types.js'
import type { IntentDecision } from './evaluateIntent.js'

/**
 * Records a policy decision in the audit trail, in the commit that acts on it: the intent with its
 * effects, the rules and facts the engine saw, and what it decided, so `verifyAuditTrail` can
 * re-run the pure engine on them offline. The counted spends are recorded as the changes from the
 * wallet's last committed decision this process knows (`RecordedSpends`): each spend once, not once
 * per later decision of its window.
 * @example auditDecision(ctx, tx, wallet.tenantId, decision, { walletId, transactionId })
 */
export function auditDecision(
  ctx: AgentWalletContext,
  tx: StorageTx,
  tenantId: string,
  decision: IntentDecision,
  subjects: AuditSubjects,
): void {
  const audit = ctx.options.audit
  if (!audit || !decision.inputs) return
  const { intent, context, recentKeys: keys } = decision.inputs
  const { recent, ...facts } = context
  const scope = subjects.walletId && `${tenantId}\n${subjects.walletId}\n${intent.chain}`
  const payload: DecisionPayload = {
    engine: ctx.policy.name,
    intent: toAuditJson(intent),
    context: toAuditJson(facts),
    recent: encodeRecordedSpends({ spends: recent, keys }, scope ? audit.spends.latest(scope) : undefined),
    decision: { decision: decision.decision, ruleId: decision.ruleId, reason: decision.reason },
  }
  const entry = appendAudit(ctx, tx, tenantId, { kind: 'policy.decision', subjects, payload })
  if (entry && scope) audit.spends.appended(entry, scope, { spends: recent, keys })
}

import { appendAudit } from '../audit/appendAudit.js'
import { toAuditJson } from '../audit/auditJson.js'
import type { AuditSubjects, DecisionPayload } from '../audit/types.js'
import type { AgentWalletContext } from '../context.js'
import type { StorageTx } from '../storage/types.js'
import type { IntentDecision } from './evaluateIntent.js'

/**
 * Records a policy decision in the audit trail, in the commit that acts on it: the intent with its
 * effects, the rules and facts the engine saw, and what it decided, so `verifyAuditTrail` can
 * re-run the pure engine on them offline.
 * @example auditDecision(ctx, tx, wallet.tenantId, decision, { walletId, transactionId })
 */
export function auditDecision(
  ctx: AgentWalletContext,
  tx: StorageTx,
  tenantId: string,
  decision: IntentDecision,
  subjects: AuditSubjects,
): void {
  if (!ctx.options.audit || !decision.inputs) return
  const payload: DecisionPayload = {
    engine: ctx.policy.name,
    intent: toAuditJson(decision.inputs.intent),
    context: toAuditJson(decision.inputs.context),
    decision: { decision: decision.decision, ruleId: decision.ruleId, reason: decision.reason },
  }
  appendAudit(ctx, tx, tenantId, { kind: 'policy.decision', subjects, payload })
}

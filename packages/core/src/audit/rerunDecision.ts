import { fromAuditJson } from './auditJson.js'
import { resolveRecordedSpends } from './recordedSpends.js'
import type { DecisionPayload } from './types.js'

/** The pure engine to re-run decisions with (core's rules engine is one: `rulesPolicyEngine()`). */
export type DecisionEngine = {
  name: string
  evaluate(intent: never, context: never): { decision: string; ruleId?: string | undefined }
}

/**
 * The spends a decision counted (audit JSON): rebuilt from the earlier decision its `recent` names,
 * or, in an entry written before that form, its `context.recent` as is.
 */
export function countedSpends(
  payload: DecisionPayload,
  earlier: { get(hash: string): unknown[] | undefined },
): { spends: unknown[] } | { error: string } {
  const recorded = payload?.recent
  if (recorded === undefined) {
    const recent = (payload?.context as { recent?: unknown } | undefined)?.recent
    return { spends: Array.isArray(recent) ? recent : [] }
  }
  if (!Array.isArray(recorded.add)) return { error: 'are malformed' }
  const base = recorded.after === undefined ? [] : earlier.get(recorded.after)
  if (base === undefined)
    return { error: `name entry ${recorded.after}, which is not an earlier decision of this tenant` }
  try {
    return { spends: resolveRecordedSpends(recorded, base) }
  } catch (error) {
    return { error: `do not apply to the list they name (${(error as Error).message})` }
  }
}

export function rerunDecision(
  engine: DecisionEngine,
  payload: DecisionPayload,
  recent: unknown[],
): { mismatch?: string | undefined } | { error: string } | undefined {
  if (payload.engine !== engine.name) return undefined
  try {
    const context = fromAuditJson({ ...(payload.context as object), recent }) as { now: string }
    const intent = fromAuditJson(payload.intent)
    const result = engine.evaluate(intent as never, { ...context, now: new Date(context.now) } as never)
    const recorded = payload.decision
    if (result.decision !== recorded.decision)
      return { mismatch: `recorded ${recorded.decision}, rules give ${result.decision}` }
    if ((result.ruleId ?? null) !== (recorded.ruleId ?? null))
      return { mismatch: `recorded rule ${recorded.ruleId ?? 'none'}, rules give ${result.ruleId ?? 'none'}` }
    return {}
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

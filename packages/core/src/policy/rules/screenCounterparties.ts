import type { ScreeningResult } from '../../screening/types.js'
import type { ScreenCounterpartiesRule } from '../ruleSchemas.js'
import type { RuleEvaluator, RuleVerdict } from './ruleVerdict.js'

/** One verdict as a decision's details list it: whom, as what, which source said what and why. */
export type ScreenedVerdict = {
  subject: string
  roles: readonly string[]
  verdict: ScreeningResult['verdict']
  source: string
  reasons: readonly string[]
  lists?: ScreeningResult['lists']
}

/**
 * Judges the screening core gathered (`intent.screening`): any `block` of a counterparty or of the
 * call denies, naming it, its role, the source and the list and reason; an outage of a source it
 * names does `onOutage`; a `warn` does `onWarn`; else it allows. Every verdict is in `details.verdicts`
 * (the dry run's and the approver's view). Screening that was not gathered denies: unknown is never clear.
 */
export const screenCounterparties: RuleEvaluator<ScreenCounterpartiesRule> = (rule, intent) => {
  const facts = intent.screening
  if (!facts) return { decision: 'deny', reason: 'The counterparties were not screened', details: {} }
  const wanted = (source: string) => rule.sources === undefined || rule.sources.includes(source)
  const verdicts: ScreenedVerdict[] = [
    ...facts.counterparties.flatMap(({ address, roles, results }) =>
      results.filter((result) => wanted(result.source)).map((result) => verdictOf(address, roles, result)),
    ),
    ...(facts.call?.results ?? [])
      .filter((result) => wanted(result.source))
      .map((result) => verdictOf(facts.call!.to, ['call'], result)),
  ]
  const outages = facts.outages.filter((outage) => wanted(outage.source))
  const details = { verdicts, ...(outages.length > 0 ? { outages } : {}) }
  const blocked = verdicts.find((entry) => entry.verdict === 'block')
  if (blocked)
    return { decision: 'deny', reason: `${describe(blocked)}`, details: { ...details, ...blocked } }
  if (outages.length > 0 && rule.onOutage !== 'open') {
    const [first] = outages
    const reason = `Screening source "${first!.source}" could not screen ${first!.subject}: ${first!.reason}`
    return { decision: rule.onOutage === 'approval' ? 'require_approval' : 'deny', reason, details }
  }
  const warned = verdicts.find((entry) => entry.verdict === 'warn')
  if (warned && rule.onWarn !== 'allow')
    return { decision: rule.onWarn, reason: describe(warned), details: { ...details, ...warned } }
  const reason =
    outages.length > 0
      ? `Screened clear, except where a source was unavailable (onOutage: open)`
      : `Every counterparty screened clear (${verdicts.length} verdict(s))`
  return { decision: 'allow', reason, details } satisfies RuleVerdict
}

function verdictOf(subject: string, roles: readonly string[], result: ScreeningResult): ScreenedVerdict {
  return {
    subject,
    roles,
    verdict: result.verdict,
    source: result.source,
    reasons: result.reasons,
    ...(result.lists ? { lists: result.lists } : {}),
  }
}

function describe(entry: ScreenedVerdict): string {
  const who = entry.roles.includes('call')
    ? `The call to ${entry.subject}`
    : `${title(entry.roles)} ${entry.subject}`
  const what = entry.verdict === 'block' ? 'is blocked' : 'is flagged'
  const why = entry.reasons.length > 0 ? `: ${entry.reasons.join('; ')}` : ''
  return `${who} ${what} by screening source "${entry.source}"${why}`
}

function title(roles: readonly string[]): string {
  const [role = 'counterparty'] = roles
  return `${role[0]!.toUpperCase()}${role.slice(1)}`
}

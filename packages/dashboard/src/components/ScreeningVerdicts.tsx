import { Address } from './common.js'

type Verdict = {
  subject: string
  roles: string[]
  verdict: 'clear' | 'warn' | 'block'
  source: string
  reasons: string[]
  lists?: { listName: string; reason: string }[]
}
type Outage = { source: string; subject: string; reason: string }

/**
 * What screening said of the counterparties of a paused intent (a `screen_counterparties` rule's
 * details): every verdict that is not clear, with its source, reasons and lists, and each source that
 * could not answer. Nothing when the pause came from another rule.
 */
export function ScreeningVerdicts({ details }: { details: Record<string, unknown> | undefined }) {
  const verdicts = (Array.isArray(details?.verdicts) ? details.verdicts : []) as Verdict[]
  const outages = (Array.isArray(details?.outages) ? details.outages : []) as Outage[]
  const flagged = verdicts.filter((entry) => entry.verdict !== 'clear')
  if (flagged.length === 0 && outages.length === 0) return null
  return (
    <ul class="screening" data-testid="screening-verdicts">
      {flagged.map((entry) => (
        <li key={`${entry.source}-${entry.subject}-${entry.roles.join()}`} class={`verdict-${entry.verdict}`}>
          <strong>{entry.verdict}</strong> by {entry.source}:{' '}
          {entry.roles.includes('call') ? 'the call to ' : `${entry.roles.join(', ')} `}
          <Address value={entry.subject} />
          {entry.reasons.length > 0 && ` — ${entry.reasons.join('; ')}`}
          {entry.lists?.map((list) => (
            <span key={list.listName} class="muted">
              {' '}
              (list “{list.listName}”: {list.reason})
            </span>
          ))}
        </li>
      ))}
      {outages.map((outage) => (
        <li key={`${outage.source}-${outage.subject}`} class="verdict-outage">
          <strong>unavailable</strong>: {outage.reason} ({outage.subject})
        </li>
      ))}
    </ul>
  )
}

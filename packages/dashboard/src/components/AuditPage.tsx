import { useSignedIn } from '../events.js'
import { dateTime } from '../format.js'
import { ErrorNote, useLoader } from './common.js'

/**
 * The payload fields this page shows: the contract declares an entry's payload `unknown` (each kind
 * has its own), so they are read as optional.
 */
type ShownPayload = {
  decision?: { decision: string; reason: string }
  resolution?: string
  resolvedBy?: string | null
  effectsHash?: string | null
}

/**
 * An approval's entries in the tenant's audit trail: the decision that paused it, the decision when
 * it was approved, and its resolution (who, the effects hash approved), each with its position and
 * hash, as `agentwallet audit verify` checks them.
 */
export function AuditPage({ approvalId }: { approvalId: string }) {
  const { api } = useSignedIn()
  const { data, error } = useLoader(() => api.listAudit({ approvalId }))
  return (
    <section aria-labelledby="audit-title" data-testid="audit-page">
      <h1 id="audit-title">Audit trail</h1>
      <p>
        Approval <code>{approvalId}</code>
      </p>
      {error && <ErrorNote>Could not load the audit trail: {error}</ErrorNote>}
      {!data && !error && <p class="muted">Loading…</p>}
      {data && data.entries.length === 0 && <p class="empty">No audit entry names this approval.</p>}
      {data && data.entries.length > 0 && (
        <ol class="audit">
          {data.entries.map((entry) => {
            const payload = (entry.payload ?? {}) as ShownPayload
            return (
              <li key={entry.seq} class="card" data-testid="audit-entry" data-kind={entry.kind}>
                <h3>
                  #{entry.seq} {entry.kind}
                </h3>
                <dl class="facts">
                  <dt>At</dt>
                  <dd>{dateTime(entry.at)}</dd>
                  {payload.decision && (
                    <>
                      <dt>Decision</dt>
                      <dd>
                        {payload.decision.decision}: {payload.decision.reason}
                      </dd>
                    </>
                  )}
                  {payload.resolution && (
                    <>
                      <dt>Resolution</dt>
                      <dd>
                        {payload.resolution}
                        {payload.resolvedBy ? ` by ${payload.resolvedBy}` : ''}
                      </dd>
                    </>
                  )}
                  {payload.effectsHash && (
                    <>
                      <dt>Effects hash</dt>
                      <dd>
                        <code>{payload.effectsHash}</code>
                      </dd>
                    </>
                  )}
                  <dt>Entry hash</dt>
                  <dd>
                    <code>{entry.hash}</code>
                  </dd>
                </dl>
              </li>
            )
          })}
        </ol>
      )}
    </section>
  )
}

import { useSignedIn } from '../events.js'
import { dateTime } from '../format.js'
import { ErrorNote, useLoader } from './common.js'

/** An audit entry as `GET /audit` lists it (the fields this page shows). */
type AuditEntry = {
  seq: number
  at: string
  kind: string
  subjects: Record<string, string>
  payload: {
    decision?: { decision: string; reason: string }
    resolution?: string
    resolvedBy?: string | null
    effectsHash?: string | null
  }
  hash: string
}

/**
 * An approval's entries in the tenant's audit trail: the decision that paused it, the decision when
 * it was approved, and its resolution (who, the effects hash approved), each with its position and
 * hash, as `agentwallet audit verify` checks them.
 */
export function AuditPage({ approvalId }: { approvalId: string }) {
  const { api } = useSignedIn()
  const { data, error } = useLoader(() =>
    api<{ entries: AuditEntry[] }>('GET', `/audit?approvalId=${encodeURIComponent(approvalId)}`),
  )
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
          {data.entries.map((entry) => (
            <li key={entry.seq} class="card" data-testid="audit-entry" data-kind={entry.kind}>
              <h3>
                #{entry.seq} {entry.kind}
              </h3>
              <dl class="facts">
                <dt>At</dt>
                <dd>{dateTime(entry.at)}</dd>
                {entry.payload.decision && (
                  <>
                    <dt>Decision</dt>
                    <dd>
                      {entry.payload.decision.decision}: {entry.payload.decision.reason}
                    </dd>
                  </>
                )}
                {entry.payload.resolution && (
                  <>
                    <dt>Resolution</dt>
                    <dd>
                      {entry.payload.resolution}
                      {entry.payload.resolvedBy ? ` by ${entry.payload.resolvedBy}` : ''}
                    </dd>
                  </>
                )}
                {entry.payload.effectsHash && (
                  <>
                    <dt>Effects hash</dt>
                    <dd>
                      <code>{entry.payload.effectsHash}</code>
                    </dd>
                  </>
                )}
                <dt>Entry hash</dt>
                <dd>
                  <code>{entry.hash}</code>
                </dd>
              </dl>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

import { AgentWalletHttpError } from '@agentwallet/client'
import { Fragment } from 'preact'
import { useReloadOn, useSignedIn } from '../events.js'
import { dateTime } from '../format.js'
import type { DecodedArgument, TransactionDetails } from '../types.js'
import { Address, ErrorNote, StatusBadge, useLoader } from './common.js'

const liveTypes = ['tx.', 'payment.'] as const

/**
 * One transaction as an explorer shows it: status, block, from/to, value, the decoded call and the
 * receipt's events. The devnet's explorer links (`explorer` in the API) open this page.
 */
export function TransactionPage({ transaction }: { transaction: string }) {
  const { api } = useSignedIn()
  const { data, error, reload } = useLoader<TransactionDetails | 'not_found'>(() =>
    api.getTransactionDetails({ transaction }).catch((failure: unknown) => {
      if (failure instanceof AgentWalletHttpError && failure.status === 404) return 'not_found' as const
      throw failure
    }),
  )
  useReloadOn(liveTypes, reload)
  return (
    <section aria-labelledby="tx-title" data-testid="transaction-page">
      <h1 id="tx-title">Transaction</h1>
      {(!data || data === 'not_found') && (
        <p>
          <code class="tx-id">{transaction}</code>
        </p>
      )}
      {error && <ErrorNote>Could not load the transaction: {error}</ErrorNote>}
      {!data && !error && <p class="muted">Loading…</p>}
      {data === 'not_found' && (
        <p class="empty">
          No transaction of this tenant has that hash or id (or this key may not see its wallet).
        </p>
      )}
      {data && data !== 'not_found' && <Details details={data} />}
    </section>
  )
}

function Details({ details }: { details: TransactionDetails }) {
  const { transaction: tx, call, block, receipt, events } = details
  return (
    <>
      <dl class="facts card">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={tx.status} />
          {receipt?.status === 'reverted' && <span class="muted"> (reverted on chain)</span>}
          {tx.error && <span class="muted"> — {tx.error.message}</span>}
          <X402Note tx={tx} />
        </dd>
        <dt>Hash</dt>
        <dd>{tx.hash ? <code class="tx-id">{tx.hash}</code> : <span class="muted">not signed</span>}</dd>
        <dt>Chain</dt>
        <dd>{tx.chain}</dd>
        <dt>Block</dt>
        <dd data-testid="tx-block">
          {block ? (
            <>
              {block.number} <span class="muted">· {dateTime(block.timestamp)}</span>
            </>
          ) : (
            <span class="muted">not mined</span>
          )}
        </dd>
        <dt>From</dt>
        <dd>
          <Address value={tx.from} />
        </dd>
        <dt>To</dt>
        <dd>
          <Address value={call.to} />
          {call.contract && <span class="muted"> · {call.contract}</span>}
        </dd>
        <dt>Value</dt>
        <dd class="amount" data-testid="tx-value">
          {call.value} ETH
        </dd>
        {tx.asset.address !== 'native' && (
          <>
            <dt>Amount</dt>
            <dd class="amount">
              {tx.amount} {tx.asset.symbol}
            </dd>
          </>
        )}
        {receipt && (
          <>
            <dt>Fee</dt>
            <dd>
              <span class="amount">{receipt.fee} ETH</span> <span class="muted">({receipt.gasUsed} gas)</span>
            </dd>
          </>
        )}
      </dl>
      <h2>Call</h2>
      {!call.decoded ? (
        <p class="muted">A plain transfer: no calldata.</p>
      ) : (
        <div class="card" data-testid="tx-call">
          <p>
            <strong class="rule">{call.decoded.signature ?? 'unknown function'}</strong>
          </p>
          <Arguments args={call.decoded.args} />
          {!call.decoded.function && <code class="raw">{call.data}</code>}
        </div>
      )}
      <h2>Events</h2>
      {events.length === 0 ? (
        <p class="muted">{receipt ? 'No events.' : 'None until it is mined.'}</p>
      ) : (
        <ol class="events" aria-label="Events">
          {events.map((event) => (
            <li key={event.logIndex} class="card event" data-testid="tx-event">
              <p>
                <strong class="rule">{event.event ?? 'unknown event'}</strong>{' '}
                <span class="muted">
                  from {event.contract ?? 'contract'} <Address value={event.address} />
                </span>
              </p>
              {event.event ? (
                <Arguments args={event.args} />
              ) : (
                <code class="raw">{[...event.topics, event.data].join('\n')}</code>
              )}
            </li>
          ))}
        </ol>
      )}
    </>
  )
}

function Arguments({ args }: { args: DecodedArgument[] }) {
  if (args.length === 0) return null
  return (
    <dl class="facts args">
      {args.map((arg) => (
        <Fragment key={arg.name}>
          <dt>
            {arg.name} <span class="muted small">{arg.type}</span>
          </dt>
          <dd>
            {arg.formatted ? (
              <span class="amount">{arg.formatted}</span>
            ) : typeof arg.value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(arg.value) ? (
              <Address value={arg.value} />
            ) : (
              <code class="raw">{typeof arg.value === 'string' ? arg.value : JSON.stringify(arg.value)}</code>
            )}
          </dd>
        </Fragment>
      ))}
    </dl>
  )
}

/**
 * An x402 payment's fate beyond its status: taken without delivering the resource, or an
 * authorization still open (reserved) until its validBefore.
 */
function X402Note({ tx }: { tx: TransactionDetails['transaction'] }) {
  if (tx.kind !== 'x402_payment') return null
  const undelivered = tx.meta?.undelivered as { status?: number | null } | undefined
  if (tx.meta?.delivered === false)
    return (
      <span class="muted" data-testid="x402-undelivered">
        {' '}
        — paid, not delivered (the resource answered{' '}
        {undelivered?.status ? `HTTP ${undelivered.status}` : 'nothing'})
      </span>
    )
  const authorization = tx.meta?.authorization as { validBefore?: string } | undefined
  if (tx.status === 'queued' && authorization?.validBefore)
    return (
      <span class="muted" data-testid="x402-open">
        {' '}
        — authorization open until{' '}
        {dateTime(new Date(Number(authorization.validBefore) * 1000).toISOString())}
      </span>
    )
  return null
}

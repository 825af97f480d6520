import { useEffect, useState } from 'preact/hooks'
import { useSignedIn } from '../events.js'
import { dateTime } from '../format.js'
import type { WebhookDelivery, WebhookSubscription } from '../types.js'
import { ErrorNote, messageOf, StatusBadge, useLoader } from './common.js'

type Loaded = { subscriptions: WebhookSubscription[]; deliveries: WebhookDelivery[] }

/** Deliveries are not events on /ws, so this page polls while it is open. */
const pollMs = 2000

export function Webhooks() {
  const { role } = useSignedIn()
  if (role !== 'admin') {
    return (
      <section aria-labelledby="webhooks-title">
        <h1 id="webhooks-title">Webhooks</h1>
        <p class="note">Webhook subscriptions and their delivery log are visible to admin keys only.</p>
      </section>
    )
  }
  return <WebhookLog />
}

function WebhookLog() {
  const { api } = useSignedIn()
  const { data, error, reload } = useLoader<Loaded>(async () => {
    const [{ subscriptions }, { deliveries }] = await Promise.all([
      api.listWebhooks(),
      api.listWebhookDeliveries({ limit: 200 }),
    ])
    return { subscriptions, deliveries }
  })
  useEffect(() => {
    const timer = setInterval(reload, pollMs)
    return () => clearInterval(timer)
  }, [reload])

  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      {error && <ErrorNote>Could not load webhooks: {error}</ErrorNote>}
      {!data && !error && <p class="muted">Loading…</p>}
      {data?.subscriptions.length === 0 && <p class="empty">No webhook subscriptions.</p>}
      {data?.subscriptions.map((subscription) => (
        <Subscription
          key={subscription.id}
          subscription={subscription}
          deliveries={data.deliveries.filter((delivery) => delivery.subscriptionId === subscription.id)}
          onChange={reload}
        />
      ))}
    </section>
  )
}

function Subscription(props: {
  subscription: WebhookSubscription
  deliveries: WebhookDelivery[]
  onChange(): void
}) {
  const { subscription, deliveries } = props
  const titleId = `sub-${subscription.id}`
  return (
    <article class="card subscription" aria-labelledby={titleId}>
      <h2 id={titleId}>
        <code class="url">{subscription.url}</code> <StatusBadge status={subscription.status} />
      </h2>
      <p class="muted">
        Events: {subscription.events.join(', ')}
        {subscription.description ? ` — ${subscription.description}` : ''}
        {subscription.disabledReason ? ` — disabled: ${subscription.disabledReason}` : ''}
      </p>
      <h3>Deliveries</h3>
      {deliveries.length === 0 ? (
        <p class="muted">Nothing delivered yet.</p>
      ) : (
        <ul class="deliveries">
          {deliveries.map((delivery) => (
            <Delivery key={delivery.id} delivery={delivery} onChange={props.onChange} />
          ))}
        </ul>
      )}
    </article>
  )
}

function Delivery({ delivery, onChange }: { delivery: WebhookDelivery; onChange(): void }) {
  const { api, announce } = useSignedIn()
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string>()
  const failed = delivery.status === 'dead' || delivery.attempts.some((attempt) => !attempt.ok)
  const retry = async () => {
    setBusy(true)
    setFailure(undefined)
    try {
      await api.retryWebhookDelivery({ deliveryId: delivery.id })
      announce(`Delivery of ${delivery.webhookEvent} will be attempted now.`)
      onChange()
    } catch (error) {
      setFailure(messageOf(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <li
      class={`delivery${delivery.status === 'dead' ? ' delivery-dead' : ''}`}
      data-delivery-id={delivery.id}
    >
      <div class="delivery-head">
        <span>
          <strong>{delivery.webhookEvent}</strong> <span class="muted">#{delivery.seq}</span>
        </span>
        <StatusBadge status={delivery.status} />
        {/* A pending delivery that failed waits out a backoff: Retry attempts it now. */}
        {(delivery.status !== 'pending' || failed) && (
          <button
            type="button"
            class={failed ? '' : 'secondary'}
            disabled={busy}
            onClick={retry}
            aria-label={`Retry delivery of ${delivery.webhookEvent} #${delivery.seq}`}
          >
            {delivery.status === 'pending' ? 'Retry now' : 'Retry'}
          </button>
        )}
      </div>
      {failure && <ErrorNote>{failure}</ErrorNote>}
      <ol class="attempts" aria-label="Attempts">
        {delivery.attempts.map((attempt, index) => (
          <li key={`${attempt.at}-${index}`} class={attempt.ok ? 'attempt-ok' : 'attempt-failed'}>
            <span class="attempt-mark" aria-hidden="true">
              {attempt.ok ? '✓' : '✗'}
            </span>
            <span class="sr-only">{attempt.ok ? 'Succeeded' : 'Failed'}: </span>
            {attempt.statusCode === null ? 'no response' : `HTTP ${attempt.statusCode}`} ·{' '}
            {attempt.durationMs} ms · <time dateTime={attempt.at}>{dateTime(attempt.at)}</time>
            {attempt.error && <span class="attempt-error"> — {attempt.error}</span>}
            {!attempt.ok && attempt.responseExcerpt && (
              <span class="attempt-error"> — “{attempt.responseExcerpt}”</span>
            )}
          </li>
        ))}
      </ol>
    </li>
  )
}

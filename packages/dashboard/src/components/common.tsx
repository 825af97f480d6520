import { AgentWalletHttpError } from '@agentwallet/client'
import type { ComponentChildren } from 'preact'
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { shortAddress } from '../format.js'

/** Loads data with `load`, keeps the last good value while reloading, and reports errors. */
export function useLoader<T>(load: () => Promise<T>): {
  data: T | undefined
  error: string | undefined
  reload: () => void
} {
  const [data, setData] = useState<T>()
  const [error, setError] = useState<string>()
  const latest = useRef(load)
  latest.current = load
  const generation = useRef(0)
  const reload = useCallback(() => {
    const mine = ++generation.current
    latest
      .current()
      .then((value) => {
        if (mine !== generation.current) return
        setData(value)
        setError(undefined)
      })
      .catch((failure: unknown) => {
        if (mine === generation.current) setError(messageOf(failure))
      })
  }, [])
  useEffect(reload, [reload])
  return { data, error, reload }
}

export function messageOf(error: unknown): string {
  if (error instanceof AgentWalletHttpError) return `${error.message} (${error.code})`
  return error instanceof Error ? error.message : String(error)
}

/** Re-renders every second (for countdowns). */
export function useNow(): number {
  const [now, setNow] = useState(Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  return now
}

export function ErrorNote({ children }: { children: ComponentChildren }) {
  return (
    <p class="error" role="alert">
      {children}
    </p>
  )
}

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge badge-${status}`}>{status.replace(/_/g, ' ')}</span>
}

/** A full address for screen readers and copying, shortened on screen. */
export function Address({ value }: { value: string }) {
  return (
    <code class="address" title={value}>
      <span class="address-full">{value}</span>
      <span class="address-short" aria-hidden="true">
        {shortAddress(value)}
      </span>
    </code>
  )
}

/** An explorer link that is this dashboard's own transaction page (the devnet's explorer). */
const ownTransactionPage = /\/dashboard\/#\/tx\/(0x[0-9a-fA-F]{64})$/

/**
 * A tx hash, linked to the chain's explorer where the server knows one. A link to this dashboard's
 * transaction page opens here, in this tab (a new tab would not have the key, which lives in this
 * tab's sessionStorage), whatever host name the server put in it.
 */
export function TxHash(props: { hash: string | null; explorer: string | null; status?: string }) {
  const { hash, explorer, status } = props
  const never = status === 'rejected' || status === 'expired' || status === 'blocked'
  if (!hash) return <span class="muted">{never ? 'never signed' : 'not signed yet'}</span>
  const own = explorer ? ownTransactionPage.exec(explorer) : null
  if (own)
    return (
      <a href={`#/tx/${own[1]}`} class="hash">
        <Address value={hash} />
        <span class="sr-only"> (transaction details)</span>
      </a>
    )
  return explorer ? (
    <a href={explorer} target="_blank" rel="noopener noreferrer" class="hash">
      <Address value={hash} />
      <span class="sr-only"> (opens the block explorer)</span>
    </a>
  ) : (
    <span class="hash">
      <Address value={hash} />
    </span>
  )
}

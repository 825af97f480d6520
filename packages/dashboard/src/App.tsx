import { AgentWalletHttpError, toHttpError } from '@agentwallet/client'
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { createApi } from './api.js'
import { Approvals } from './components/Approvals.js'
import { AuditPage } from './components/AuditPage.js'
import { SignIn } from './components/SignIn.js'
import { TransactionPage } from './components/TransactionPage.js'
import { Wallets } from './components/Wallets.js'
import { Webhooks } from './components/Webhooks.js'
import { type Listener, type SignedIn, SignedInContext } from './events.js'
import { connectLive, type LiveEvents, type LiveStatus } from './liveEvents.js'
import { forgetKey, loadKey, saveKey } from './session.js'
import type { Role } from './types.js'

/** The sections, and the roles that see each (the webhook routes are admin-only). */
const pages = [
  { id: 'approvals', label: 'Approvals', roles: ['approver', 'admin'] },
  { id: 'wallets', label: 'Wallets', roles: ['approver', 'admin'] },
  { id: 'webhooks', label: 'Webhooks', roles: ['admin'] },
] as const satisfies readonly { id: string; label: string; roles: readonly Role[] }[]
type PageId = (typeof pages)[number]['id']

/**
 * `#/wallets`, `#/tx/<hash or id>` (the transaction page, what the devnet's explorer links open), or
 * `#/audit/<approval id>` (an approval's entries in the audit trail).
 */
type Route = { page: PageId } | { page: 'tx'; transaction: string } | { page: 'audit'; approvalId: string }

const routeFromHash = (): Route => {
  const path = location.hash.replace(/^#\/?/, '')
  const tx = /^tx\/(0x[0-9a-fA-F]{64}|tx_[0-9a-zA-Z_-]{1,64})$/.exec(path)
  if (tx) return { page: 'tx', transaction: tx[1]! }
  const audit = /^audit\/(apr_[0-9a-zA-Z_-]{1,64})$/.exec(path)
  if (audit) return { page: 'audit', approvalId: audit[1]! }
  return { page: pages.find((page) => page.id === path)?.id ?? 'approvals' }
}

type Session = { key: string; role: Role; live: LiveEvents }

/**
 * Checks a key the way the server sees it: a wrong key is a 401 on any call; the role comes from
 * the /ws `ready` message. Agent keys are refused here: they cannot approve anything.
 */
async function signIn(
  key: string,
  listeners: Set<Listener>,
  onStatus: (status: LiveStatus) => void,
): Promise<Session> {
  await createApi(key).listWallets()
  const live = connectLive(key, {
    onEvent: (event) => {
      for (const listener of listeners) listener(event)
    },
    onStatus,
  })
  const role = await live.ready.catch((error: Error) => {
    live.close()
    throw error.message === 'unauthorized'
      ? toHttpError({ status: 401, code: 'unauthorized', message: 'Invalid API key' })
      : toHttpError({
          status: 0,
          code: 'network_error',
          message: 'The live event stream (/ws) could not be opened.',
        })
  })
  if (role === 'agent') {
    live.close()
    throw new AgentKeyRefused()
  }
  return { key, role, live }
}

export function App() {
  const [session, setSession] = useState<Session | undefined>()
  const [checking, setChecking] = useState(() => loadKey() !== undefined)
  const [signInError, setSignInError] = useState<string | undefined>()
  const [status, setStatus] = useState<LiveStatus>('closed')
  const [route, setRoute] = useState<Route>(routeFromHash)
  const [announcement, setAnnouncement] = useState('')
  const listeners = useRef(new Set<Listener>()).current
  const main = useRef<HTMLElement>(null)

  const attempt = useCallback(
    async (key: string) => {
      setSignInError(undefined)
      try {
        const next = await signIn(key, listeners, setStatus)
        saveKey(key)
        setSession(next)
      } catch (error) {
        forgetKey()
        setSignInError(describeSignInError(error))
      } finally {
        setChecking(false)
      }
    },
    [listeners],
  )

  useEffect(() => {
    const stored = loadKey()
    if (stored) void attempt(stored)
    const onHash = () => {
      setRoute(routeFromHash())
      main.current?.focus()
    }
    addEventListener('hashchange', onHash)
    return () => removeEventListener('hashchange', onHash)
  }, [attempt])

  const signedIn = useMemo<SignedIn | undefined>(
    () =>
      session && {
        api: createApi(session.key),
        role: session.role,
        subscribe(listener) {
          listeners.add(listener)
          return () => listeners.delete(listener)
        },
        announce: setAnnouncement,
      },
    [session, listeners],
  )

  const signOut = () => {
    session?.live.close()
    forgetKey()
    setSession(undefined)
    setSignInError(undefined)
    // The button that had focus is gone: start again at the top of the content (the key field is next).
    main.current?.focus()
  }

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">AgentWallet</span>
        {session && (
          <>
            <nav aria-label="Sections">
              {pages
                .filter((item) => (item.roles as readonly Role[]).includes(session.role))
                .map((item) => (
                  <a
                    key={item.id}
                    href={`#/${item.id}`}
                    aria-current={route.page === item.id ? 'page' : undefined}
                  >
                    {item.label}
                  </a>
                ))}
            </nav>
            <span class={`live live-${status}`} role="status" aria-live="polite">
              {status === 'live' ? 'Live' : status === 'closed' ? 'Offline' : 'Reconnecting…'}
            </span>
            <span class="role">{session.role}</span>
            <button type="button" class="secondary" onClick={signOut}>
              Sign out
            </button>
          </>
        )}
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {!session ? (
          <SignIn busy={checking} error={signInError} onSubmit={attempt} />
        ) : (
          <SignedInContext.Provider value={signedIn}>
            {route.page === 'approvals' && <Approvals />}
            {route.page === 'wallets' && <Wallets />}
            {route.page === 'webhooks' && <Webhooks />}
            {route.page === 'audit' && <AuditPage key={route.approvalId} approvalId={route.approvalId} />}
            {route.page === 'tx' && (
              <TransactionPage key={route.transaction} transaction={route.transaction} />
            )}
          </SignedInContext.Provider>
        )}
      </main>
      <div class="sr-only" role="status" aria-live="polite">
        {announcement}
      </div>
    </>
  )
}

/** An agent key signing in: refused here, since agents cannot approve anything. */
class AgentKeyRefused extends Error {}

function describeSignInError(error: unknown): string {
  if (error instanceof AgentKeyRefused)
    return 'This is an agent key. Agents cannot approve their own sends: sign in with an approver or admin key.'
  if (error instanceof AgentWalletHttpError) {
    if (error.status === 401) return 'That API key was not recognised. Check it and try again.'
    if (error.code === 'rate_limited') return 'Too many attempts. Wait a moment and try again.'
    return error.message
  }
  return 'Sign-in failed.'
}

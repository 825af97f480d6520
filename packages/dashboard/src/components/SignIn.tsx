import { useState } from 'preact/hooks'

export type SignInProps = { busy: boolean; error: string | undefined; onSubmit(key: string): Promise<void> }

/** The key is read from a password field and handed to the app; it is never put in the URL. */
export function SignIn({ busy, error, onSubmit }: SignInProps) {
  const [key, setKey] = useState('')
  const [sending, setSending] = useState(false)
  const submit = async (event: Event) => {
    event.preventDefault()
    if (!key.trim()) return
    setSending(true)
    await onSubmit(key.trim())
    setSending(false)
    setKey('')
  }
  return (
    <section class="card signin" aria-labelledby="signin-title">
      <h1 id="signin-title">Sign in</h1>
      <p>
        Use an <strong>approver</strong> or <strong>admin</strong> API key. It is kept in this tab only
        (session storage) and sent in the <code>X-API-Key</code> header.
      </p>
      <form onSubmit={submit} method="post" action="#">
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          required
          value={key}
          onInput={(event) => setKey((event.target as HTMLInputElement).value)}
          aria-describedby={error ? 'signin-error' : undefined}
          aria-invalid={error ? true : undefined}
        />
        <button type="submit" disabled={busy || sending}>
          {busy || sending ? 'Checking…' : 'Sign in'}
        </button>
      </form>
      {error && (
        <p id="signin-error" class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  )
}

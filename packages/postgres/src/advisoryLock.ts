import pg from 'pg'
import { lockId } from './lockId.js'

/** A session advisory lock held on its own connection. */
export type AdvisoryLock = {
  /** Aborted when the connection drops: the lock is gone and another process may take it. */
  readonly signal: AbortSignal
  /** Unlocks and closes the connection; calling it again is a no-op. */
  release(): Promise<void>
}

/**
 * Takes the advisory lock `name` of `schema` if nobody holds it, on a dedicated connection so a
 * long-held lock (a chain tracker's leadership) never occupies a pooled one.
 * @example const lock = await tryAdvisoryLock(config, 'agentwallet', 'tracker:base'); if (lock) { …; await lock.release() }
 */
export const tryAdvisoryLock = async (
  config: pg.ClientConfig,
  schema: string,
  name: string,
): Promise<AdvisoryLock | undefined> => {
  const client = new pg.Client(config)
  const lost = new AbortController()
  let released = false
  // The server drops a session's advisory locks with its connection; say so to the holder.
  const drop = () => {
    if (!released) lost.abort(new Error(`Advisory lock "${name}" lost with its connection`))
  }
  client.on('error', drop)
  client.on('end', drop)
  try {
    await client.connect()
    const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
      lockId(schema, 'leader', name),
    ])
    if (rows[0]?.ok) {
      return {
        signal: lost.signal,
        async release() {
          if (released) return
          released = true
          // Closing the session releases the lock too; ending the connection is the whole release.
          await client.end().catch(() => {})
        },
      }
    }
  } catch (error) {
    released = true
    await client.end().catch(() => {})
    throw error
  }
  released = true
  await client.end().catch(() => {})
  return undefined
}

export type WithLeaderLockOptions = {
  /** How often a follower retries to become leader. Default 1000 ms. */
  retryMs?: number | undefined
  /** Stops waiting (rejects with its reason) and is passed on to `fn` together with lock loss. */
  signal?: AbortSignal | undefined
}

/**
 * Waits until this process holds the leader lock `name`, runs `fn` as leader, then lets go.
 * `fn` gets a signal that aborts when leadership is lost (connection dropped) or `options.signal` aborts.
 * @example await withLeaderLock(config, schema, 'tracker:base', (signal) => runTracker({ signal }))
 */
export const withLeaderLock = async <T>(
  config: pg.ClientConfig,
  schema: string,
  name: string,
  fn: (signal: AbortSignal) => Promise<T>,
  options: WithLeaderLockOptions = {},
): Promise<T> => {
  const retryMs = options.retryMs ?? 1_000
  for (;;) {
    options.signal?.throwIfAborted()
    const lock = await tryAdvisoryLock(config, schema, name)
    if (lock) {
      try {
        const signals = options.signal ? [lock.signal, options.signal] : [lock.signal]
        return await fn(AbortSignal.any(signals))
      } finally {
        await lock.release()
      }
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, retryMs)
      function done() {
        clearTimeout(timer)
        options.signal?.removeEventListener('abort', done)
        resolve()
      }
      options.signal?.addEventListener('abort', done)
    })
  }
}

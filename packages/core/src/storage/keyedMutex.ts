/** Releases a held lock. Calling it more than once is a no-op. */
export type Release = () => void

export type KeyedMutex = {
  /** Waits until `key` is free, takes it, and resolves with its release function. */
  lock(key: string): Promise<Release>
  /**
   * Takes every key (deduplicated, in one global sorted order, so two callers never wait on each
   * other in a cycle) and resolves with one function that releases them all.
   */
  lockAll(keys: readonly string[]): Promise<Release>
  /** True while some caller holds `key`. */
  isLocked(key: string): boolean
}

/**
 * An in-process async mutex per key, FIFO fair: waiters get the lock in the order they asked.
 * @example const release = await mutex.lock('wallet:0xabc'); try { ... } finally { release() }
 */
export const keyedMutex = (): KeyedMutex => {
  // A key is held while it has an entry; the array holds the waiters queued behind the holder.
  const queues = new Map<string, Array<(release: Release) => void>>()

  const releaseFor = (key: string): Release => {
    let released = false
    return () => {
      if (released) return
      released = true
      const waiters = queues.get(key)
      const next = waiters?.shift()
      // Hand the lock straight to the next waiter so no newcomer can barge in between.
      if (next) next(releaseFor(key))
      else queues.delete(key)
    }
  }

  const lock = (key: string): Promise<Release> => {
    const waiters = queues.get(key)
    if (!waiters) {
      queues.set(key, [])
      return Promise.resolve(releaseFor(key))
    }
    return new Promise<Release>((resolve) => waiters.push(resolve))
  }

  return {
    lock,
    async lockAll(keys) {
      const releases: Release[] = []
      for (const key of [...new Set(keys)].sort()) releases.push(await lock(key))
      return () => {
        for (const release of releases.reverse()) release()
      }
    },
    isLocked: (key) => queues.has(key),
  }
}

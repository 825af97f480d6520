import { fdatasync } from 'node:fs'
import { BaseError } from '@agentwallet/core'

/**
 * Group commit for a WAL that SQLite writes without syncing (`synchronous = OFF`): each commit
 * takes a ticket, and waits for one `fdatasync` of the WAL started after it was written. Commits
 * that arrive while a sync runs share the next one, so a burst costs one or two syncs, not one
 * each, and every sync runs on the libuv pool, off the event loop.
 */
export type GroupSync = {
  /** Counts a commit just written to the WAL; returns its ticket. */
  wrote(): number
  /** The ticket of the last commit written (0 before any). */
  readonly written: number
  /** The ticket of the last commit on disk (0 before any). */
  readonly synced: number
  /** Resolves once every commit up to `ticket` is on disk; runs `then` first, in ticket order. */
  until(ticket: number, then?: () => void): Promise<void>
  /** Syncs performed so far (a figure for benchmarks and tests). */
  readonly syncs: number
}

type Waiter = {
  ticket: number
  then: (() => void) | undefined
  resolve: () => void
  reject: (e: Error) => void
}

/**
 * A group sync over the file descriptor `fd()` returns (opened lazily: the WAL may not exist yet).
 * @example const sync = groupSync(() => walFd); await sync.until(sync.wrote())
 */
export function groupSync(fd: () => number): GroupSync {
  let written = 0
  let synced = 0
  let syncs = 0
  let running = false
  let failed: Error | undefined
  const waiters: Waiter[] = []

  const settle = () => {
    while (waiters.length > 0 && (failed || waiters[0]!.ticket <= synced)) {
      const waiter = waiters.shift()!
      if (failed) waiter.reject(failed)
      else {
        waiter.then?.()
        waiter.resolve()
      }
    }
  }

  const fail = (cause: unknown) => {
    failed = new BaseError('internal', 'Syncing the database log to disk failed', { cause })
    settle()
  }

  const start = () => {
    if (running || failed || waiters.length === 0) return
    let descriptor: number
    try {
      descriptor = fd()
    } catch (error) {
      return fail(error)
    }
    running = true
    const covering = written
    fdatasync(descriptor, (error) => {
      running = false
      syncs++
      // After a failed sync the kernel may have dropped the dirty pages: nothing later is trustworthy.
      if (error) return fail(error)
      synced = covering
      settle()
      start()
    })
  }

  return {
    wrote: () => ++written,
    get written() {
      return written
    },
    get synced() {
      return synced
    },
    get syncs() {
      return syncs
    },
    until(ticket, then) {
      if (failed) return Promise.reject(failed)
      if (ticket <= synced && waiters.length === 0) {
        then?.()
        return Promise.resolve()
      }
      return new Promise<void>((resolve, reject) => {
        waiters.push({ ticket, then, resolve, reject })
        start()
      })
    },
  }
}

import type * as fs from 'node:fs'

/**
 * The WAL's syncs held while `holding` until the test lets them run, so a commit stays applied and
 * unsynced: `vi.mock('node:fs', async (original) => (await import('…/heldSyncs.js')).holdingSyncs(await original()))`.
 * @example heldSyncs.holding = true; …; heldSyncs.release()
 */
export const heldSyncs = {
  holding: false,
  held: [] as Array<() => void>,
  /** Lets every held sync run, and the next ones at once. */
  release() {
    heldSyncs.holding = false
    for (const sync of heldSyncs.held.splice(0)) sync()
  },
}

/** `node:fs` with `fdatasync` held while `heldSyncs.holding`. */
export function holdingSyncs(real: typeof fs): typeof fs {
  return {
    ...real,
    fdatasync: ((fd: number, done: (error: NodeJS.ErrnoException | null) => void) => {
      if (heldSyncs.holding) heldSyncs.held.push(() => real.fdatasync(fd, done))
      else real.fdatasync(fd, done)
    }) as typeof fs.fdatasync,
  }
}

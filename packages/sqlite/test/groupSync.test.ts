import { closeSync, openSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { groupSync } from '../src/groupSync.js'
import { tempDatabases } from './tempDatabase.js'

const temp = tempDatabases()
afterAll(() => temp.cleanup())

describe('groupSync', () => {
  it('acknowledges each ticket after a sync that began after it, in ticket order, sharing syncs', async () => {
    const fd = openSync(temp.next('log'), 'w')
    try {
      const sync = groupSync(() => fd)
      const order: number[] = []
      const acks = Array.from({ length: 20 }, () => {
        const ticket = sync.wrote()
        return sync.until(ticket, () => order.push(ticket))
      })
      await Promise.all(acks)
      expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
      expect(sync.syncs).toBeGreaterThan(0)
      expect(sync.syncs).toBeLessThan(20)
      // Nothing written since: a read's ticket is already covered, no new sync.
      const before = sync.syncs
      await sync.until(sync.written)
      expect(sync.syncs).toBe(before)
    } finally {
      closeSync(fd)
    }
  })

  it('fails the waiting and every later commit once a sync fails', async () => {
    // No process has this many files open: the sync fails with EBADF, as a failing disk would fail it.
    const sync = groupSync(() => 2 ** 30)
    await expect(sync.until(sync.wrote())).rejects.toMatchObject({ code: 'internal' })
    await expect(sync.until(sync.wrote())).rejects.toMatchObject({ code: 'internal' })
  })

  it('fails, rather than hangs, when the log cannot be opened', async () => {
    const sync = groupSync(() => openSync(temp.next('missing/log'), 'r'))
    await expect(sync.until(sync.wrote())).rejects.toMatchObject({ code: 'internal' })
  })
})

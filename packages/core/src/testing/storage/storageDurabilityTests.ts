import type { Storage } from '../../storage/types.js'
import type { StorageSuiteContext } from './storageSuiteContext.js'

/** Survives close and reopen: records and the event log with its seq numbering. */
export const storageDurabilityTests = (
  { runner }: StorageSuiteContext,
  create: () => Promise<Storage>,
  reopen: (storage: Storage) => Promise<Storage>,
) => {
  const { it, expect } = runner

  it('keeps records and continues event seq after close and reopen', async () => {
    const first = await create()
    expect(first.capabilities.durable).toBe(true)
    await first.transaction(['k'], async (tx) => {
      await tx.put('things', { id: 'a', amount: '123456789012345678901234567890' })
      tx.appendEvent('s', { id: 'e1', type: 't', timestamp: '2026-01-01T00:00:00.000Z', data: { n: 1 } })
    })
    await first.close()
    const second = await reopen(first)
    try {
      expect(await second.get('things', 'a')).toEqual({ id: 'a', amount: '123456789012345678901234567890' })
      await second.transaction([], async (tx) =>
        tx.appendEvent('s', { id: 'e2', type: 't', timestamp: '2026-01-01T00:00:01.000Z', data: {} }),
      )
      expect((await second.readEvents('s')).map((e) => [e.id, e.seq])).toEqual([
        ['e1', 1],
        ['e2', 2],
      ])
    } finally {
      await second.close()
    }
  })
}

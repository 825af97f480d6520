import type { Storage } from '@agentwallet/core'
import { afterAll, describe, expect, it } from 'vitest'
import { testSchemas } from './testDatabase.js'

const schemas = testSchemas()
afterAll(() => schemas.cleanup())

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
const tick = () => new Promise<void>((resolve) => setImmediate(resolve))

const increment = (storage: Storage, key: string, id: string) =>
  storage.transaction([key], async (tx) => {
    const current = await tx.get('counters', id)
    await tick()
    await tx.put('counters', { id, value: Number(current?.value ?? 0) + 1 })
  })

/** Fails with 'deadlock' instead of hanging until the test timeout. */
const within = <T>(ms: number, work: Promise<T>) =>
  Promise.race([work, sleep(ms).then(() => 'deadlock' as const)])

describe('postgresStorage lock design with tiny pools', () => {
  it('loses no update among 200 read-increment-writes under one key with 2+1 connections', async () => {
    const storage = await schemas.storage({ poolSize: 2, lockPoolSize: 1 })
    try {
      const outcome = await within(
        30_000,
        Promise.all(Array.from({ length: 200 }, () => increment(storage, 'wallet:one', 'c'))),
      )
      expect(outcome).not.toBe('deadlock')
      expect(await storage.get('counters', 'c')).toEqual({ id: 'c', value: 200 })
    } finally {
      await storage.close()
    }
  })

  it('lets a keyed holder commit inner unkeyed transactions while 50 callers wait on its key', async () => {
    const storage = await schemas.storage({ poolSize: 2, lockPoolSize: 2 })
    try {
      const steps = ['persisted', 'signed', 'broadcast']
      const holder = storage.transaction(['wallet:busy'], async () => {
        // Let the waiters pile up first, as a burst of sends on one wallet would.
        await sleep(50)
        for (const step of steps) {
          await storage.transaction([], async (tx) => {
            await tx.put('steps', { id: step })
            tx.appendEvent('wallet:busy', {
              id: step,
              type: 'step',
              timestamp: new Date().toISOString(),
              data: {},
            })
          })
        }
        return 'holder done'
      })
      const waiters = Array.from({ length: 50 }, (_, i) =>
        storage.transaction(['wallet:busy'], async () => {
          await storage.transaction([], async (tx) => tx.put('steps', { id: `waiter-${i}` }))
        }),
      )
      const outcome = await within(30_000, Promise.all([holder, ...waiters]))
      expect(outcome).not.toBe('deadlock')
      expect(await storage.count('steps')).toBe(53)
      expect((await storage.readEvents('wallet:busy')).map((event) => [event.id, event.seq])).toEqual([
        ['persisted', 1],
        ['signed', 2],
        ['broadcast', 3],
      ])
    } finally {
      await storage.close()
    }
  })

  it('runs more held keys than lock connections, each committing inside, across two instances', async () => {
    const storage = await schemas.storage({ poolSize: 2, lockPoolSize: 2 })
    const peer = await schemas.storage({
      schema: storage.schema,
      poolSize: 2,
      lockPoolSize: 2,
      migrate: false,
    })
    try {
      const work = Array.from({ length: 120 }, (_, i) =>
        (i % 2 === 0 ? storage : peer).transaction([`wallet:${i % 12}`], async (tx) => {
          await storage.transaction([], async (inner) => inner.put('log', { id: `step-${i}` }))
          const current = await tx.get('counters', `w${i % 12}`)
          await tick()
          await tx.put('counters', { id: `w${i % 12}`, value: Number(current?.value ?? 0) + 1 })
        }),
      )
      const outcome = await within(60_000, Promise.all(work))
      expect(outcome).not.toBe('deadlock')
      const counters = await storage.query('counters')
      expect(counters.map((counter) => counter.value)).toEqual(Array.from({ length: 12 }, () => 10))
      expect(await storage.count('log')).toBe(120)
    } finally {
      await peer.close()
      await storage.close()
    }
  })
})

import { createHash } from 'node:crypto'
import type { StoredEvent } from '@agentwallet/core'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { testSchemas, testUrl } from './testDatabase.js'

const schemas = testSchemas()
afterAll(() => schemas.cleanup())

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
const event = (id: string) => ({ id, type: 't', timestamp: '2026-01-01T00:00:00.000Z', data: { id } })

const waitFor = async (done: () => boolean, ms = 5_000) => {
  for (let waited = 0; !done() && waited < ms; waited += 20) await sleep(20)
}

describe('postgresStorage events across instances (LISTEN/NOTIFY)', () => {
  it('delivers every commit as one batch, once, to every instance, whichever committed it', async () => {
    const a = await schemas.storage({ poolSize: 3 })
    const b = await schemas.storage({ schema: a.schema, poolSize: 3, migrate: false })
    try {
      const heardA: StoredEvent[][] = []
      const heardB: StoredEvent[][] = []
      a.onEvents((batch) => heardA.push(batch))
      b.onEvents((batch) => heardB.push(batch))
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 === 0 ? a : b).transaction([], async (tx) => {
            tx.appendEvent('s', event(`s-${i}`))
            tx.appendEvent(`wallet:${i % 3}`, event(`w-${i}`))
          }),
        ),
      )
      await waitFor(() => heardA.length === 40 && heardB.length === 40)
      for (const heard of [heardA, heardB]) {
        expect(heard).toHaveLength(40)
        // Each commit is one batch with both of its events.
        expect(heard.every((batch) => batch.length === 2)).toBe(true)
        const seqs = heard
          .flat()
          .filter((e) => e.stream === 's')
          .map((e) => e.seq)
        expect([...seqs].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
      }
      const log = await a.readEvents('s')
      expect(log.map((e) => e.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
      expect(log[0]).toMatchObject({ stream: 's', seq: 1, type: 't' })
    } finally {
      await b.close()
      await a.close()
    }
  })

  it('keeps delivering after its LISTEN connection is killed, catching up on streams it knew', async () => {
    const a = await schemas.storage({ poolSize: 2 })
    const b = await schemas.storage({ schema: a.schema, poolSize: 2, migrate: false })
    const admin = new pg.Client({ connectionString: testUrl })
    await admin.connect()
    try {
      const heard: string[] = []
      a.onEvents((batch) => heard.push(...batch.map((e) => e.id)))
      await b.transaction([], async (tx) => tx.appendEvent('s', event('before')))
      await waitFor(() => heard.length === 1)
      // Kill the listening backends of this schema (a's and b's): both must come back.
      const channel = `agentwallet_events_${createHash('sha256').update(a.schema).digest('hex').slice(0, 16)}`
      const killed = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1',
        [`LISTEN "${channel}"`],
      )
      expect(killed.rowCount).toBe(2)
      await b.transaction([], async (tx) => tx.appendEvent('s', event('during')))
      await waitFor(() => heard.includes('during'))
      await b.transaction([], async (tx) => tx.appendEvent('s', event('after')))
      await waitFor(() => heard.includes('after'))
      expect(heard).toEqual(['before', 'during', 'after'])
    } finally {
      await admin.end()
      await b.close()
      await a.close()
    }
  })

  it('does not hear another schema on the same database', async () => {
    const a = await schemas.storage({ poolSize: 2 })
    const other = await schemas.storage({ poolSize: 2 })
    try {
      const heard: StoredEvent[] = []
      a.onEvents((batch) => heard.push(...batch))
      await other.transaction([], async (tx) => tx.appendEvent('s', event('elsewhere')))
      await sleep(200)
      expect(heard).toEqual([])
    } finally {
      await other.close()
      await a.close()
    }
  })
})

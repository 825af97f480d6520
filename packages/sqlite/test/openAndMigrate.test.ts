import { migrate, sqliteStorage } from '@agentwallet/sqlite'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { tempDatabases } from './tempDatabase.js'

const temp = tempDatabases()
afterAll(() => temp.cleanup())

const ownIndexes = (filename: string) => {
  const db = new Database(filename, { readonly: true })
  try {
    return (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'aw!_%' ESCAPE '!'")
        .pluck()
        .all() as string[]
    ).sort()
  } finally {
    db.close()
  }
}

describe('sqliteStorage open, migrations and indexes', () => {
  it('migrates a new file once and finds nothing to do on reopen', async () => {
    const filename = temp.next()
    await (await sqliteStorage({ filename })).close()
    const db = new Database(filename)
    try {
      expect(db.prepare('SELECT version, name FROM schema_migrations').all()).toEqual([
        { version: 1, name: 'records and events' },
      ])
      expect(migrate(db)).toEqual({ from: 1, to: 1, applied: [] })
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    } finally {
      db.close()
    }
    const indexes = ownIndexes(filename)
    expect(indexes.length).toBeGreaterThan(10)
    await (await sqliteStorage({ filename })).close()
    expect(ownIndexes(filename)).toEqual(indexes)
  })

  it('refuses a file whose schema is newer than this release', async () => {
    const filename = temp.next()
    await sqliteStorage({ filename }).close()
    const db = new Database(filename)
    db.prepare("INSERT INTO schema_migrations VALUES (99, 'future', '2030-01-01')").run()
    db.close()
    expect(() => sqliteStorage({ filename })).toThrow(expect.objectContaining({ code: 'internal' }))
  })

  it('creates indexes for a changed schema and drops the ones no longer wanted', async () => {
    const filename = temp.next()
    const first = sqliteStorage({ filename, schema: { notes: { indexes: ['author'] } } })
    await first.transaction([], async (tx) => tx.put('notes', { id: 'n1', author: 'ann' }))
    await first.close()
    expect(ownIndexes(filename)).toEqual([expect.stringMatching(/^aw_notes_author_/)])
    const second = sqliteStorage({ filename, schema: { notes: { indexes: ['topic', 'createdAt'] } } })
    try {
      expect(await second.get('notes', 'n1')).toEqual({ id: 'n1', author: 'ann' })
    } finally {
      await second.close()
    }
    expect(ownIndexes(filename)).toEqual([
      expect.stringMatching(/^aw_notes_createdAt_/),
      expect.stringMatching(/^aw_notes_topic_createdAt_/),
    ])
  })

  it('keeps a second handle (another process) off an open file, and lets it in after close', async () => {
    const filename = temp.next()
    const first = sqliteStorage({ filename })
    expect(() => sqliteStorage({ filename })).toThrow(
      expect.objectContaining({
        code: 'internal',
        details: expect.objectContaining({ reason: 'database_locked' }),
      }),
    )
    // A plain SQLite connection, as another process would open it, cannot read or write either.
    const other = new Database(filename, { timeout: 0 })
    expect(() => other.prepare('SELECT count(*) FROM records').get()).toThrow(/locked|busy/i)
    other.close()
    await first.close()
    const second = sqliteStorage({ filename })
    await second.close()
  })

  it('is not durable on :memory: and says so', async () => {
    const storage = sqliteStorage({ filename: ':memory:' })
    expect(storage.capabilities).toEqual({
      durable: false,
      crossProcessLocks: false,
      crossProcessEvents: false,
    })
    await storage.close()
    const onDisk = sqliteStorage({ path: temp.next() })
    expect(onDisk.capabilities.durable).toBe(true)
    await onDisk.close()
  })

  it('refuses records that JSON cannot carry, before anything is written', async () => {
    const storage = sqliteStorage({ filename: temp.next() })
    try {
      await expect(
        storage.transaction([], async (tx) => {
          await tx.put('things', { id: 'ok' })
          await tx.put('things', { id: 'big', amount: 10n })
        }),
      ).rejects.toMatchObject({ code: 'validation_failed' })
      expect(await storage.count('things')).toBe(0)
    } finally {
      await storage.close()
    }
  })
})

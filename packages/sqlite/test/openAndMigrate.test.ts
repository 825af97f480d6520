import { migrate, migrations, sqliteStorage } from '@agentwallet/sqlite'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { entryBeforeKeys, expectAuditKeysMigrated } from '../../../test/helpers/auditKeysMigrated.js'
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
        { version: 2, name: 'a table per collection' },
        { version: 3, name: 'event keys and times, indexed' },
      ])
      expect(migrate(db)).toEqual({ from: 3, to: 3, applied: [] })
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    } finally {
      db.close()
    }
    const indexes = ownIndexes(filename)
    expect(indexes.length).toBeGreaterThan(10)
    await (await sqliteStorage({ filename })).close()
    expect(ownIndexes(filename)).toEqual(indexes)
  })

  it('upgrades a file of the one-table layout: every record, index and event kept', async () => {
    const filename = temp.next()
    // The file as the release before a table per collection left it: schema version 1, one
    // `records` table with a partial index per collection and field, and an event log.
    const old = new Database(filename)
    migrate(
      old,
      migrations.filter((migration) => migration.version === 1),
    )
    const insert = old.prepare('INSERT INTO records (collection, id, data) VALUES (?, ?, ?)')
    for (let i = 0; i < 30; i++) {
      const wallet = {
        id: `w${i}`,
        tenantId: i % 2 === 0 ? 'even' : 'odd',
        address: `0x${i}`,
        createdAt: `2026-01-${10 + i}`,
      }
      insert.run('wallets', wallet.id, JSON.stringify(wallet))
    }
    insert.run('notes', 'n1', JSON.stringify({ id: 'n1', text: 'kept' }))
    old.exec(
      `CREATE INDEX "aw_wallets_address_0000000000" ON records (coalesce(data -> '$."address"', 'null'), id) WHERE collection = 'wallets'`,
    )
    old
      .prepare('INSERT INTO events (stream, seq, id, type, timestamp, data) VALUES (?, ?, ?, ?, ?, ?)')
      .run('wallets', 1, 'e1', 'wallet.created', '2026-01-01T00:00:00.000Z', '{}')
    // An audit entry written before event keys: the migration gives it its kind, wallet and approval.
    old
      .prepare('INSERT INTO events (stream, seq, id, type, timestamp, data) VALUES (?, ?, ?, ?, ?, ?)')
      .run(
        'audit:default',
        1,
        'aud1',
        'audit.policy.decision',
        '2026-01-01T00:00:00.000Z',
        JSON.stringify(entryBeforeKeys),
      )
    old.close()

    const storage = sqliteStorage({ filename })
    try {
      expect(await storage.count('wallets')).toBe(30)
      expect(await storage.get('notes', 'n1')).toEqual({ id: 'n1', text: 'kept' })
      expect((await storage.query('wallets', { where: { address: '0x7' } })).map((w) => w.id)).toEqual(['w7'])
      expect(
        (
          await storage.query('wallets', {
            where: { tenantId: 'odd' },
            orderBy: 'createdAt',
            order: 'desc',
            limit: 2,
          })
        ).map((w) => w.id),
      ).toEqual(['w29', 'w27'])
      expect(storage.explainQuery('wallets', { where: { address: '0x7' } }).join('\n')).toMatch(
        /aw_wallets_address_/,
      )
      await storage.transaction([], async (tx) =>
        tx.appendEvent('wallets', {
          id: 'e2',
          type: 'wallet.created',
          timestamp: '2026-01-02T00:00:00.000Z',
          data: {},
        }),
      )
      expect((await storage.readEvents('wallets')).map((event) => [event.id, event.seq])).toEqual([
        ['e1', 1],
        ['e2', 2],
      ])
      await expectAuditKeysMigrated(storage)
    } finally {
      await storage.close()
    }
    const db = new Database(filename, { readonly: true })
    try {
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'records'").get()).toBeUndefined()
      expect(db.prepare('SELECT max(version) FROM schema_migrations').pluck().get()).toBe(3)
    } finally {
      db.close()
    }
    expect(ownIndexes(filename)).not.toContain('aw_wallets_address_0000000000')
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

import { migrate, migrateClient, migrations, postgresStorage } from '@agentwallet/postgres'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { entryBeforeKeys, expectAuditKeysMigrated } from '../../../test/helpers/auditKeysMigrated.js'
import { testSchemas, testUrl } from './testDatabase.js'

const schemas = testSchemas()
afterAll(() => schemas.cleanup())

describe('migrate', () => {
  it('creates the schema once and is a no-op the second time', async () => {
    const schema = schemas.next()
    const first = await migrate({ connectionString: testUrl, schema })
    expect(first).toMatchObject({ from: 0, to: 3, applied: [1, 2, 3] })
    expect(first.indexes.created.length).toBeGreaterThan(10)
    const second = await migrate({ connectionString: testUrl, schema })
    expect(second).toEqual({ from: 3, to: 3, applied: [], indexes: { created: [], dropped: [] } })
  })

  it('is safe when five processes start at once', async () => {
    const schema = schemas.next()
    const results = await Promise.all(
      Array.from({ length: 5 }, () => migrate({ connectionString: testUrl, schema })),
    )
    expect(results.flatMap((result) => result.applied)).toEqual([1, 2, 3])
    expect(results.every((result) => result.to === 3)).toBe(true)
    const storages = await Promise.all(
      Array.from({ length: 3 }, () => postgresStorage({ connectionString: testUrl, schema, poolSize: 1 })),
    )
    await storages[0]!.transaction([], async (tx) => tx.put('things', { id: 'a' }))
    expect(await storages[2]!.get('things', 'a')).toEqual({ id: 'a' })
    await Promise.all(storages.map((storage) => storage.close()))
  })

  it('upgrades a version 1 schema: the shared token buckets arrive with version 2', async () => {
    const schema = schemas.next()
    const client = new pg.Client({ connectionString: testUrl })
    await client.connect()
    try {
      expect(await migrateClient(client, { schema }, migrations.slice(0, 1))).toMatchObject({ to: 1 })
    } finally {
      await client.end()
    }
    expect(await migrate({ connectionString: testUrl, schema })).toMatchObject({
      from: 1,
      to: 3,
      applied: [2, 3],
    })
    const storage = await postgresStorage({ connectionString: testUrl, schema, poolSize: 1 })
    try {
      expect(await storage.takeToken('k', { capacity: 1, refillPerSecond: 0.001 })).toEqual({ ok: true })
      expect((await storage.takeToken('k', { capacity: 1, refillPerSecond: 0.001 })).ok).toBe(false)
    } finally {
      await storage.close()
    }
  })

  it('upgrades a version 2 schema: the audit entries written before event keys get their kind, wallet and approval', async () => {
    const schema = schemas.next()
    const client = new pg.Client({ connectionString: testUrl })
    await client.connect()
    try {
      await migrateClient(client, { schema }, migrations.slice(0, 2))
      await client.query(
        `INSERT INTO "${schema}".events (stream, seq, id, type, timestamp, data) VALUES ($1, 1, 'aud1', 'audit.policy.decision', '2026-01-01T00:00:00.000Z', $2)`,
        ['audit:default', entryBeforeKeys],
      )
    } finally {
      await client.end()
    }
    expect(await migrate({ connectionString: testUrl, schema })).toMatchObject({
      from: 2,
      to: 3,
      applied: [3],
    })
    const storage = await postgresStorage({ connectionString: testUrl, schema, poolSize: 1 })
    try {
      await expectAuditKeysMigrated(storage)
    } finally {
      await storage.close()
    }
  })

  it('upgrades the one-table layout: each schema collection moves to its own table, indexed', async () => {
    const schema = schemas.next()
    // The layout before a table per collection: every record in `records`, one partial index per field.
    const before = await postgresStorage({ connectionString: testUrl, schema, poolSize: 1, indexes: {} })
    await before.transaction([], async (tx) => {
      for (let i = 0; i < 20; i++) {
        await tx.put<string>('wallets', { id: `w${i}`, tenantId: i % 2 ? 'odd' : 'even', address: `0x${i}` })
      }
      await tx.put('notes', { id: 'n1', text: 'stays shared' })
      tx.appendEvent('wallets', {
        id: 'e1',
        type: 'wallet.created',
        timestamp: '2026-01-01T00:00:00.000Z',
        data: {},
      })
    })
    await before.close()
    const client = new pg.Client({ connectionString: testUrl })
    await client.connect()
    try {
      await client.query(
        `CREATE INDEX "aw_wallets_address_0000000000" ON "${schema}".records ((data -> 'address')) WHERE collection = 'wallets'`,
      )
      const upgraded = await migrate({ connectionString: testUrl, schema })
      expect(upgraded.indexes.dropped).toContain('aw_wallets_address_0000000000')
      const shared = await client.query(
        `SELECT collection, count(*)::int AS n FROM "${schema}".records GROUP BY 1`,
      )
      expect(shared.rows).toEqual([{ collection: 'notes', n: 1 }])
      const own = await client.query(`SELECT count(*)::int AS n FROM "${schema}".c_wallets`)
      expect(own.rows).toEqual([{ n: 20 }])
    } finally {
      await client.end()
    }
    const storage = await postgresStorage({ connectionString: testUrl, schema, poolSize: 1 })
    try {
      expect((await storage.query('wallets', { where: { address: '0x7' } })).map((w) => w.id)).toEqual(['w7'])
      expect(await storage.count('wallets', { where: { tenantId: 'odd' } })).toBe(10)
      expect(await storage.get('notes', 'n1')).toEqual({ id: 'n1', text: 'stays shared' })
      expect((await storage.explainQuery('wallets', { where: { address: '0x7' } })).join('\n')).toMatch(
        /c_wallets/,
      )
      expect((await storage.readEvents('wallets')).map((event) => event.id)).toEqual(['e1'])
    } finally {
      await storage.close()
    }
  })

  it('follows the index table: new fields get indexes, stale ones are dropped', async () => {
    const schema = schemas.next()
    await migrate({ connectionString: testUrl, schema, indexes: { things: { indexes: ['color'] } } })
    const changed = await migrate({
      connectionString: testUrl,
      schema,
      indexes: { things: { indexes: ['size'] } },
    })
    expect(changed.indexes.created).toHaveLength(1)
    expect(changed.indexes.created[0]).toMatch(/^aw_things_size_/)
    expect(changed.indexes.dropped[0]).toMatch(/^aw_things_color_/)
  })

  it('refuses a schema written by a newer release', async () => {
    const schema = schemas.next()
    await migrate({ connectionString: testUrl, schema })
    const client = new pg.Client({ connectionString: testUrl })
    await client.connect()
    await client.query(`INSERT INTO "${schema}".schema_migrations (version, name) VALUES (99, 'future')`)
    await client.end()
    await expect(migrate({ connectionString: testUrl, schema })).rejects.toMatchObject({ code: 'internal' })
  })

  it('fails loudly, with the driver error, when the database is unreachable', async () => {
    await expect(
      postgresStorage({ connectionString: 'postgres://postgres@127.0.0.1:1/test', schema: schemas.next() }),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' })
  })
})

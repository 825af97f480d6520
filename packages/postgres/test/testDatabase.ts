import { randomBytes } from 'node:crypto'
import { type PostgresStorage, type PostgresStorageOptions, postgresStorage } from '@agentwallet/postgres'
import pg from 'pg'

/** The test database; CI machines have Postgres here (see .ci/run). Unreachable means failing tests, not skipped ones. */
export const testUrl = process.env.AGENTWALLET_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/**
 * Fresh schema names for one test file, and a cleanup that drops every one of them.
 * @example const schemas = testSchemas(); afterAll(() => schemas.cleanup()); const storage = await schemas.storage()
 */
export const testSchemas = () => {
  const created: string[] = []
  const next = () => {
    const name = `aw_test_${randomBytes(6).toString('hex')}`
    created.push(name)
    return name
  }
  return {
    next,
    storage: (options: Omit<PostgresStorageOptions, 'connectionString'> = {}): Promise<PostgresStorage> =>
      postgresStorage({ connectionString: testUrl, schema: next(), ...options }),
    async cleanup() {
      const client = new pg.Client({ connectionString: testUrl })
      await client.connect()
      try {
        for (const name of created) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`)
      } finally {
        await client.end()
      }
    },
  }
}

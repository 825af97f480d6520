import { runStorageConformance } from '@agentwallet/core/testing'
import { type PostgresStorage, postgresStorage } from '@agentwallet/postgres'
import { afterAll, describe, expect, it } from 'vitest'
import { testSchemas, testUrl } from './testDatabase.js'

const schemas = testSchemas()
afterAll(() => schemas.cleanup())

const sameSchema = (storage: unknown) =>
  postgresStorage({ connectionString: testUrl, schema: (storage as PostgresStorage).schema, poolSize: 4 })

describe('postgresStorage', () => {
  runStorageConformance(
    { describe, it, expect },
    { create: () => schemas.storage({ poolSize: 4 }), reopen: sameSchema, createPeer: sameSchema },
  )
})

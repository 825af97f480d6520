import { runStorageConformance } from '@agentwallet/core/testing'
import { type SqliteStorage, sqliteStorage } from '@agentwallet/sqlite'
import { afterAll, describe, expect, it } from 'vitest'
import { tempDatabases } from './tempDatabase.js'

const temp = tempDatabases()
afterAll(() => temp.cleanup())

describe('sqliteStorage', () => {
  runStorageConformance(
    { describe, it, expect },
    {
      create: () => sqliteStorage({ filename: temp.next() }),
      reopen: (storage) => sqliteStorage({ filename: (storage as SqliteStorage).filename }),
      skip: {
        crossProcessLocks:
          'one process per database file: the file is opened exclusively (use Postgres for replicas)',
        crossProcessEvents:
          'one process per database file: the file is opened exclusively (use Postgres for replicas)',
      },
    },
  )
})

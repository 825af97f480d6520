import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { runStorageConformance } from '@agentwallet/core/testing'
import { type SqliteStorage, sqliteStorage } from '@agentwallet/sqlite'
import { afterAll, describe, expect, it } from 'vitest'
import { tempDatabases } from './tempDatabase.js'

const temp = tempDatabases()
/** tsx resolves `@agentwallet/*` to sources through the root tsconfig's `paths`. */
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))
const crashWriter = fileURLToPath(new URL('./crashWriterChild.ts', import.meta.url))
afterAll(() => temp.cleanup())

describe('sqliteStorage', () => {
  runStorageConformance(
    { describe, it, expect },
    {
      create: () => sqliteStorage({ filename: temp.next() }),
      reopen: (storage) => sqliteStorage({ filename: (storage as SqliteStorage).filename }),
      spawnCrashWriter: (storage, count) =>
        spawn(
          process.execPath,
          ['--import', 'tsx', crashWriter, (storage as SqliteStorage).filename, `${count}`],
          {
            cwd: repoRoot,
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        ),
      skip: {
        crossProcessLocks:
          'one process per database file: the file is opened exclusively (use Postgres for replicas)',
        crossProcessEvents:
          'one process per database file: the file is opened exclusively (use Postgres for replicas)',
      },
    },
  )
})

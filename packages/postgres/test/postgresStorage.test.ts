import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { runStorageConformance } from '@agentwallet/core/testing'
import { type PostgresStorage, postgresStorage } from '@agentwallet/postgres'
import { afterAll, describe, expect, it } from 'vitest'
import { testSchemas, testUrl } from './testDatabase.js'

const schemas = testSchemas()
afterAll(() => schemas.cleanup())

/** tsx resolves `@agentwallet/*` to sources through the root tsconfig's `paths`. */
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))
const crashWriter = fileURLToPath(new URL('./crashWriterChild.ts', import.meta.url))

const sameSchema = (storage: unknown) =>
  postgresStorage({ connectionString: testUrl, schema: (storage as PostgresStorage).schema, poolSize: 4 })

describe('postgresStorage', () => {
  runStorageConformance(
    { describe, it, expect },
    {
      create: () => schemas.storage({ poolSize: 4 }),
      reopen: sameSchema,
      createPeer: sameSchema,
      spawnCrashWriter: (storage, count) =>
        spawn(
          process.execPath,
          ['--import', 'tsx', crashWriter, testUrl, (storage as PostgresStorage).schema, `${count}`],
          { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
        ),
    },
  )
})

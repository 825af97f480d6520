import { randomBytes, verify } from 'node:crypto'
import { ed25519PublicKey, localKeyVault, type Storage, storageKeyRecordStore } from '@agentwallet/core'
import { runKeyVaultConformance } from '@agentwallet/core/testing'
import { postgresStorage } from '@agentwallet/postgres'
import { sqliteStorage } from '@agentwallet/sqlite'
import { afterAll, describe, expect, it } from 'vitest'
import { testSchemas, testUrl } from '../../packages/postgres/test/testDatabase.js'
import { tempDatabases } from '../../packages/sqlite/test/tempDatabase.js'

const files = tempDatabases()
const schemas = testSchemas()
const opened: Storage[] = []
afterAll(async () => {
  for (const storage of opened.splice(0)) await storage.close()
  files.cleanup()
  await schemas.cleanup()
})

/** One database: each `open()` is a storage on the same data (closed after the file's tests). */
type Backend = { open(): Promise<Storage> }
const tracked = async (storage: Storage | Promise<Storage>) => {
  opened.push(await storage)
  return opened[opened.length - 1]!
}
const sqlite = (): Backend => {
  const filename = files.next()
  return { open: () => tracked(sqliteStorage({ filename })) }
}
const postgres = (): Backend => {
  const schema = schemas.next()
  return { open: () => tracked(postgresStorage({ connectionString: testUrl, schema, poolSize: 2 })) }
}

describe.each([
  ['SQLite', sqlite],
  ['PostgreSQL', postgres],
] as const)('local key vault on %s storage', (_name, backend) => {
  const vaultOn = (storage: Storage, masterKey: Uint8Array) =>
    localKeyVault({ masterKey, store: storageKeyRecordStore(storage) })

  runKeyVaultConformance(
    { describe, it, expect },
    { create: async () => vaultOn(await backend().open(), new Uint8Array(randomBytes(32))) },
  )

  it('saves a prepared Ed25519 key in the storage transaction, and it signs after the store is reopened', async () => {
    const store = backend()
    const storage = await store.open()
    const masterKey = new Uint8Array(randomBytes(32))
    const prepared = await vaultOn(storage, masterKey).ed25519!.prepareKey!()
    await storage.transaction([], (tx) => prepared.save(tx))
    // SQLite has one writer per file: the first storage closes before the second opens.
    await storage.close()
    opened.splice(opened.indexOf(storage), 1)
    const keys = vaultOn(await store.open(), masterKey).ed25519!
    expect(await keys.hasKey(prepared.address)).toBe(true)
    const message = new Uint8Array(randomBytes(48))
    const signature = await (await keys.getSigner(prepared.address)).signBytes(message)
    const x = Buffer.from(ed25519PublicKey(prepared.address)).toString('base64url')
    expect(verify(null, message, { key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' }, signature)).toBe(
      true,
    )
  })
})

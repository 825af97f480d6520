import { memoryStorage, type Storage } from '@agentwallet/core'
import { runKeyVaultConformance } from '@agentwallet/core/testing'
import { awsKmsKeyVault, kmsKeyRecordStore, kmsKeysCollection } from '@agentwallet/vault-kms/aws'
import { KMSClient } from '@aws-sdk/client-kms'
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeAwsKms, startFakeAwsKms } from '../../../test/helpers/fakeAwsKms.js'
import { runKmsVaultBehaviour } from './kmsVaultBehaviour.js'

let kms: FakeAwsKms
beforeAll(async () => {
  kms = await startFakeAwsKms()
})
afterAll(() => kms.close())

// One SDK retry keeps the throttling tests short; the SDK's own retries are not what is tested.
const clientOf = (fake: FakeAwsKms, secretAccessKey = fake.credentials.secretAccessKey) =>
  new KMSClient({
    region: fake.region,
    endpoint: fake.url,
    credentials: { ...fake.credentials, secretAccessKey },
    maxAttempts: 2,
  })
const vaultOn = (
  storage: Storage = memoryStorage(),
  onInvalidSignature?: (address: Address) => void,
  fake = kms,
) => awsKmsKeyVault({ client: clientOf(fake), store: kmsKeyRecordStore(storage), onInvalidSignature })

describe('AWS KMS key vault (fake AWS KMS over HTTP)', () => {
  runKeyVaultConformance(
    { describe, it, expect },
    {
      create: () => vaultOn(),
      skip: { ed25519: 'the KMS vaults hold secp256k1 keys only' },
    },
  )
  runKmsVaultBehaviour({
    kms: () => kms,
    faults: ['throttle', 'internal'],
    vaultOn,
    async vaultOnOwnKms() {
      const own = await startFakeAwsKms()
      return { vault: vaultOn(memoryStorage(), undefined, own), kms: own }
    },
    imports: () => kms.calls.ImportKeyMaterial ?? 0,
  })

  it('signs every request with SigV4, which the fake checks against its secret', async () => {
    const refusedBefore = kms.badSigV4
    await vaultOn().createKey()
    expect(kms.badSigV4).toBe(refusedBefore)
    const forged = awsKmsKeyVault({
      client: clientOf(kms, 'not-the-secret'),
      store: kmsKeyRecordStore(memoryStorage()),
    })
    await expect(forged.createKey()).rejects.toMatchObject({ code: 'vault_error' })
    expect(kms.badSigV4).toBeGreaterThan(refusedBefore)
  })

  it('keeps only the key id and public key in Storage, and refuses a record filed under another address', async () => {
    const storage = memoryStorage()
    const vault = vaultOn(storage)
    const [a, b] = [await vault.createKey(), await vault.createKey()]
    const rows = await storage.query(kmsKeysCollection)
    expect(rows.map((row) => row.id).sort()).toEqual([a.toLowerCase(), b.toLowerCase()].sort())
    expect(Object.keys(rows[0]!.record as object).sort()).toEqual(
      ['keyId', 'kind', 'publicKey', 'service', 'version'].sort(),
    )
    const row = await storage.get(kmsKeysCollection, a.toLowerCase())
    await storage.transaction([], (tx) => tx.put(kmsKeysCollection, { ...row!, id: b.toLowerCase() }))
    await expect(vault.getSigner(b)).rejects.toMatchObject({ code: 'key_decryption_failed' })
    expect((await (await vault.getSigner(a)).signMessage({ message: 'a' })).length).toBe(132)
  })
})

import { memoryStorage, type Storage } from '@agentwallet/core'
import { runKeyVaultConformance } from '@agentwallet/core/testing'
import { awsKmsKeyVault, kmsKeyRecordStore, kmsKeysCollection } from '@agentwallet/vault-kms/aws'
import { KMSClient } from '@aws-sdk/client-kms'
import { type Address, hexToBytes, keccak256, parseSignature, recoverAddress, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeAwsKms, startFakeAwsKms } from '../../../test/helpers/fakeAwsKms.js'

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
  options: { onInvalidSignature?: (a: Address) => void } = {},
) => awsKmsKeyVault({ client: clientOf(kms), store: kmsKeyRecordStore(storage), ...options })

describe('AWS KMS key vault (fake AWS KMS over HTTP)', () =>
  runKeyVaultConformance({ describe, it, expect }, { create: () => vaultOn() }))

describe('AWS KMS key vault', () => {
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

  it('keeps address → key id in Storage: a new vault on the same storage signs with the same KMS key', async () => {
    const storage = memoryStorage()
    const address = await vaultOn(storage).createKey()
    const rows = await storage.query(kmsKeysCollection)
    expect(rows.map((row) => row.id)).toEqual([address.toLowerCase()])
    expect(JSON.stringify(rows)).not.toMatch(/privateKey|"d"/)
    const reopened = vaultOn(storage)
    expect(await reopened.hasKey(address)).toBe(true)
    const signer = await reopened.getSigner(address)
    const hash = keccak256(toHex('restart'))
    expect(await recoverAddress({ hash, signature: await signer.sign!({ hash }) })).toBe(address)
  })

  it('normalises s to the low half over many signatures (the fake, like KMS, returns high s half the time)', async () => {
    const vault = vaultOn()
    const address = await vault.createKey()
    const signer = await vault.getSigner(address)
    const halfOrder = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n
    for (let i = 0; i < 16; i += 1) {
      const hash = keccak256(toHex(`message ${i}`))
      const signature = await signer.sign!({ hash })
      expect(BigInt(parseSignature(signature).s) <= halfOrder).toBe(true)
      expect(await recoverAddress({ hash, signature })).toBe(address)
    }
  })

  it('refuses a signature that does not recover to the key: asks again, and fails with vault_error after 3', async () => {
    const refused: Address[] = []
    const vault = vaultOn(memoryStorage(), { onInvalidSignature: (address) => refused.push(address) })
    const address = await vault.createKey()
    const signer = await vault.getSigner(address)
    const hash = keccak256(toHex('checked'))
    kms.badSignatures = 2
    expect(await recoverAddress({ hash, signature: await signer.sign!({ hash }) })).toBe(address)
    expect(refused).toEqual([address, address])
    kms.badSignatures = 3
    await expect(signer.signMessage({ message: 'never signed' })).rejects.toMatchObject({
      code: 'vault_error',
    })
    expect(refused).toHaveLength(5)
    kms.badSignatures = 0
  })

  it('names throttling and KMS-side faults vault_unavailable, and works again after', async () => {
    const vault = vaultOn()
    const address = await vault.createKey()
    const signer = await vault.getSigner(address)
    for (const fault of ['throttle', 'internal'] as const) {
      kms.fault = fault
      try {
        await expect(signer.signMessage({ message: 'busy' })).rejects.toMatchObject({
          code: 'vault_unavailable',
        })
        await expect(vault.createKey()).rejects.toMatchObject({ code: 'vault_unavailable' })
        await expect(vault.probe!()).rejects.toMatchObject({ code: 'vault_unavailable' })
      } finally {
        kms.fault = undefined
      }
    }
    await vault.probe!()
    expect((await signer.signMessage({ message: 'back' })).length).toBe(132)
  })

  it('names a KMS that does not answer vault_unavailable', async () => {
    const down = await startFakeAwsKms()
    const vault = awsKmsKeyVault({ client: clientOf(down), store: kmsKeyRecordStore(memoryStorage()) })
    await vault.probe!()
    await down.close()
    await expect(vault.probe!()).rejects.toMatchObject({ code: 'vault_unavailable' })
    await expect(vault.createKey()).rejects.toMatchObject({ code: 'vault_unavailable' })
  })

  it('refuses a record filed under another address with key_decryption_failed', async () => {
    const storage = memoryStorage()
    const vault = vaultOn(storage)
    const [a, b] = [await vault.createKey(), await vault.createKey()]
    const row = await storage.get(kmsKeysCollection, a.toLowerCase())
    await storage.transaction([], (tx) => tx.put(kmsKeysCollection, { ...row!, id: b.toLowerCase() }))
    await expect(vault.getSigner(b)).rejects.toMatchObject({ code: 'key_decryption_failed' })
    expect(hexToBytes(await (await vault.getSigner(a)).signMessage({ message: 'a' })).length).toBe(65)
  })

  it('imports through the wrapping flow: the KMS key signs for the imported address', async () => {
    const calls = { ...kms.calls }
    const vault = vaultOn()
    const privateKey = '0x8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f'
    const address = await vault.importKey(privateKey)
    expect((kms.calls.ImportKeyMaterial ?? 0) - (calls.ImportKeyMaterial ?? 0)).toBe(1)
    const hash = keccak256(toHex('imported'))
    expect(
      await recoverAddress({ hash, signature: await (await vault.getSigner(address)).sign!({ hash }) }),
    ).toBe(address)
  })
})

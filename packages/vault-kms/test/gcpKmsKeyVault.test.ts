import { memoryStorage, type Storage } from '@agentwallet/core'
import { runKeyVaultConformance } from '@agentwallet/core/testing'
import { gcpKmsKeyVault, kmsKeyRecordStore } from '@agentwallet/vault-kms/gcp'
import { KeyManagementServiceClient } from '@google-cloud/kms'
import { OAuth2Client } from 'google-auth-library'
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeGcpKms, startFakeGcpKms } from '../../../test/helpers/fakeGcpKms.js'
import { runKmsVaultBehaviour } from './kmsVaultBehaviour.js'

let kms: FakeGcpKms
beforeAll(async () => {
  kms = await startFakeGcpKms()
})
afterAll(() => kms.close())

/** The library's REST transport (`fallback: true`) to the fake, with a bearer token as OAuth would give. */
const clientOf = (fake: FakeGcpKms, token = fake.token) => {
  const authClient = new OAuth2Client()
  authClient.setCredentials({ access_token: token, expiry_date: Date.now() + 3_600_000 })
  return new KeyManagementServiceClient({
    fallback: true,
    protocol: 'http',
    apiEndpoint: fake.host,
    port: fake.port,
    authClient,
  })
}
const vaultOn = (
  storage: Storage = memoryStorage(),
  onInvalidSignature?: (address: Address) => void,
  fake = kms,
  token = fake.token,
) =>
  gcpKmsKeyVault({
    client: clientOf(fake, token),
    keyRing: fake.keyRing,
    store: kmsKeyRecordStore(storage),
    pollIntervalMs: 10,
    onInvalidSignature,
  })

describe('Google Cloud KMS key vault (fake KMS over REST)', () => {
  runKeyVaultConformance(
    { describe, it, expect },
    {
      create: () => vaultOn(),
      skip: { ed25519: 'the KMS vaults hold secp256k1 keys only' },
    },
  )
  runKmsVaultBehaviour({
    kms: () => kms,
    faults: ['throttle', 'unavailable'],
    vaultOn,
    async vaultOnOwnKms() {
      const own = await startFakeGcpKms()
      return { vault: vaultOn(memoryStorage(), undefined, own), kms: own }
    },
    imports: () => kms.calls.ImportCryptoKeyVersion ?? 0,
  })

  it('waits for an HSM key version Google is still generating (the fake reads PENDING_GENERATION once)', async () => {
    const before = kms.calls.GetCryptoKeyVersion ?? 0
    await vaultOn().createKey()
    expect((kms.calls.GetCryptoKeyVersion ?? 0) - before).toBe(2)
  })

  it('sends the bearer token: a wrong one is refused with vault_error', async () => {
    await expect(vaultOn(memoryStorage(), undefined, kms, 'wrong').createKey()).rejects.toMatchObject({
      code: 'vault_error',
    })
  })
})

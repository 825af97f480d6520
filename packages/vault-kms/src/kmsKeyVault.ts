import {
  BaseError,
  type KeyRecordStore,
  type KeyVault,
  NotFoundError,
  parsePrivateKey,
  vaultAddressId,
} from '@agentwallet/core'
import type { Address, Hex } from 'viem'
import { publicKeyToAddress } from 'viem/accounts'
import type { KmsBackend, KmsKey } from './kmsBackend.js'
import { kmsEd25519Keys } from './kmsEd25519Keys.js'
import type { KmsKeyRecord } from './kmsKeyRecord.js'
import { kmsSigner } from './kmsSigner.js'

export type KmsKeyVaultOptions = {
  backend: KmsBackend
  /** Address → KMS key id, e.g. `kmsKeyRecordStore(storage)`: it must outlive the process. */
  store: KeyRecordStore<KmsKeyRecord>
  name?: string | undefined
  /** Signatures asked for per signing before a KMS that returns bad ones is given up on (default 3). */
  signatureAttempts?: number | undefined
  /** Called once per KMS signature refused because it does not recover to (or verify under) the key. */
  onInvalidSignature?: ((address: string) => void) | undefined
}

/**
 * A KeyVault whose keys are generated (or imported) into a KMS and never leave it; Storage keeps
 * only which KMS key signs for which address, and that key's public key.
 * @example const vault = kmsKeyVault({ backend: awsKmsBackend(client), store: kmsKeyRecordStore(storage) })
 */
export const kmsKeyVault = (options: KmsKeyVaultOptions): KeyVault => {
  const { backend, store } = options
  const attempts = options.signatureAttempts ?? 3
  // Shown on /metrics as agentwallet_vault_signatures_total and agentwallet_vault_bad_signatures_total.
  const counts = { signatures: 0, badSignatures: 0 }
  const onSigned = () => {
    counts.signatures += 1
  }
  const onInvalidSignature = (address: string) => {
    counts.badSignatures += 1
    options.onInvalidSignature?.(address)
  }

  const file = async (key: KmsKey, expected?: Address): Promise<Address> => {
    const address = publicKeyToAddress(key.publicKey)
    if (expected !== undefined && address !== expected) {
      throw new BaseError('vault_error', 'The KMS holds another key than the one imported', {
        details: { service: backend.service, keyId: key.keyId },
      })
    }
    const record: KmsKeyRecord = {
      version: 1,
      kind: 'kms',
      service: backend.service,
      keyId: key.keyId,
      publicKey: key.publicKey.toLowerCase() as Hex,
    }
    // false: a concurrent import of the same key filed first; its KMS key signs for the address.
    await store.add(vaultAddressId(address) as Address, record)
    return address
  }

  const recordOf = async (address: Address): Promise<KmsKeyRecord> => {
    const id = vaultAddressId(address)
    const record = await store.get(id as Address)
    if (!record) throw new NotFoundError('Key', { details: { address: id } })
    if (record.service !== backend.service) {
      throw new BaseError('vault_error', 'This wallet key lives in another KMS', {
        details: { address: id, service: record.service },
      })
    }
    // A record copied from another wallet must not sign for this address.
    if (publicKeyToAddress(record.publicKey).toLowerCase() !== id) {
      throw new BaseError('key_decryption_failed', 'The stored key does not belong to this address', {
        details: { address: id },
      })
    }
    return record
  }

  return {
    name: options.name ?? backend.service,
    capabilities: { exportable: false, hd: false, encryptedAtRest: true },
    async createKey() {
      return file(await backend.createKey())
    },
    async importKey(value) {
      const { privateKey, address } = parsePrivateKey(value)
      if (await store.get(vaultAddressId(address) as Address)) return address
      return file(await backend.importKey(privateKey), address)
    },
    async hasKey(address) {
      return (await store.get(vaultAddressId(address) as Address)) !== undefined
    },
    async getSigner(address) {
      const record = await recordOf(address)
      return kmsSigner({ backend, record, address, attempts, onInvalidSignature, onSigned })
    },
    ed25519: backend.ed25519
      ? kmsEd25519Keys({
          service: backend.service,
          backend: backend.ed25519,
          store,
          attempts,
          onSigned,
          onInvalidSignature,
        })
      : undefined,
    probe: () => backend.probe(),
    stats: () => ({ ...counts }),
  }
}

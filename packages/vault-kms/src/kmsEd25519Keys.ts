import {
  BaseError,
  checkedEd25519Signature,
  type Ed25519Keys,
  ed25519Address,
  ed25519KeyPair,
  ed25519PublicKey,
  type KeyRecordStore,
  NotFoundError,
} from '@agentwallet/core'
import { type Address, bytesToHex, type Hex } from 'viem'
import type { KmsEd25519Backend } from './kmsBackend.js'
import type { KmsKeyRecord } from './kmsKeyRecord.js'

export type KmsEd25519KeysParameters = {
  service: string
  backend: KmsEd25519Backend
  store: KeyRecordStore<KmsKeyRecord>
  /** Signatures asked for per message before a KMS that returns bad ones is given up on. */
  attempts: number
  onSigned: () => void
  onInvalidSignature: (address: string) => void
}

/** Records are filed as the local vault files Ed25519 keys: `ed25519:` and the public key in hex. */
const idOf = (address: string) => `ed25519:${Buffer.from(ed25519PublicKey(address)).toString('hex')}`

/**
 * A KMS vault's Ed25519 keys: generated in the KMS (AWS ECC_NIST_EDWARDS25519, Google EC_SIGN_ED25519),
 * never imported (`not_implemented`), each signature verified under the public key before use.
 * @example const keys = kmsEd25519Keys({ service, backend: backend.ed25519, store, attempts: 3, onSigned, onInvalidSignature })
 */
export function kmsEd25519Keys(parameters: KmsEd25519KeysParameters): Ed25519Keys {
  const { service, backend, store, attempts } = parameters
  // Store ids are typed as addresses; an Ed25519 id is a string of its own shape.
  const recordAt = (address: string) => store.get(idOf(address) as Address)

  const recordOf = async (address: string): Promise<KmsKeyRecord> => {
    const record = await recordAt(address)
    if (!record) throw new NotFoundError('Key', { details: { address } })
    if (record.service !== service || record.algorithm !== 'ed25519') {
      throw new BaseError('vault_error', 'This wallet key lives in another KMS, or is not an Ed25519 key', {
        details: { address, service: record.service },
      })
    }
    // A record copied from another wallet must not sign for this address.
    if (record.publicKey !== bytesToHex(ed25519PublicKey(address))) {
      throw new BaseError('key_decryption_failed', 'The stored key does not belong to this address', {
        details: { address },
      })
    }
    return record
  }

  return {
    async createKey() {
      const key = await backend.createKey()
      const address = ed25519Address(key.publicKey)
      const record: KmsKeyRecord = {
        version: 1,
        kind: 'kms',
        algorithm: 'ed25519',
        service,
        keyId: key.keyId,
        publicKey: bytesToHex(key.publicKey) as Hex,
      }
      await store.add(idOf(address) as Address, record)
      return address
    },
    async importKey(secretKey) {
      // Checked first, so a malformed key is validation_failed here as in every vault.
      const { seed, address } = ed25519KeyPair(secretKey)
      seed.fill(0)
      if (await recordAt(address)) return address
      throw new BaseError(
        'not_implemented',
        'This KMS vault does not import Ed25519 keys; create them in the KMS',
        {
          details: { service },
        },
      )
    },
    async hasKey(address) {
      return (await recordAt(address)) !== undefined
    },
    async getSigner(address) {
      const { keyId } = await recordOf(address)
      return {
        address,
        async signBytes(message) {
          const signature = await checkedEd25519Signature({
            message,
            address,
            signRaw: () => backend.sign(keyId, message),
            maxAttempts: attempts,
            onBadSignature: () => parameters.onInvalidSignature(address),
          })
          parameters.onSigned()
          return signature
        },
      }
    },
  }
}

import type { Address } from 'viem'
import { BaseError } from '../errors/baseError.js'
import { NotFoundError } from '../errors/errors.js'
import {
  type Ed25519KeyPair,
  ed25519KeyId,
  ed25519KeyPair,
  ed25519PublicKey,
  ed25519SecretKey,
  ed25519Signer,
  randomEd25519KeyPair,
} from './ed25519Key.js'
import { openEnvelope, sealEnvelope } from './envelope.js'
import type { EnvelopeKeyRecord, LocalKeyRecord } from './localKeyRecord.js'
import type { Ed25519Keys, KeyRecordStore, PreparedEd25519Key } from './types.js'

export type LocalEd25519KeysParameters = {
  store: KeyRecordStore<LocalKeyRecord>
  /** The key that wraps each record's data key (the master key). */
  wrappingKey: () => Promise<Uint8Array>
}

export type LocalEd25519Keys = Ed25519Keys & { exportKey(address: string): Promise<Uint8Array> }

/**
 * A local vault's Ed25519 keys: each 32-byte seed sealed in an envelope like a secp256k1 key, under
 * the same wrapping key, filed under `ed25519:<public key hex>` (also the associated data) with
 * `algorithm: 'ed25519'`, so master key rotation re-seals them with the rest.
 * @example const keys = localEd25519Keys({ store, wrappingKey: async () => masterKey })
 */
export const localEd25519Keys = ({ store, wrappingKey }: LocalEd25519KeysParameters): LocalEd25519Keys => {
  // Store ids are typed as addresses; an Ed25519 id is a string of its own shape.
  const recordOf = (id: string) => store.get(id as Address)

  const seal = async (pair: Ed25519KeyPair): Promise<{ id: string; record: EnvelopeKeyRecord }> => {
    const id = ed25519KeyId(pair.address)
    const record = sealEnvelope(pair.seed, await wrappingKey(), id)
    pair.seed.fill(0)
    return { id, record: { ...record, algorithm: 'ed25519' } }
  }

  const sealAndAdd = async (pair: Ed25519KeyPair): Promise<string> => {
    const { id, record } = await seal(pair)
    // false means the vault already holds this key (a repeated or concurrent import): same address.
    await store.add(id as Address, record)
    return pair.address
  }

  /** The seed filed under `address`. The id is the envelope's associated data: no other record opens for it. */
  const seedOf = async (address: string): Promise<Uint8Array> => {
    const id = ed25519KeyId(address)
    const record = await recordOf(id)
    if (!record) throw new NotFoundError('Key', { details: { address } })
    if (record.kind !== 'envelope' || record.algorithm !== 'ed25519') {
      throw new BaseError('key_decryption_failed', 'The stored key is not an Ed25519 key', {
        details: { address },
      })
    }
    return openEnvelope(record, await wrappingKey(), id)
  }

  const { addIn } = store
  const prepareKey = addIn
    ? async (): Promise<PreparedEd25519Key> => {
        const pair = randomEd25519KeyPair()
        const { id, record } = await seal(pair)
        return { address: pair.address, save: (tx) => addIn(tx, id as Address, record) }
      }
    : undefined

  return {
    createKey: () => sealAndAdd(randomEd25519KeyPair()),
    async importKey(secretKey) {
      const pair = ed25519KeyPair(secretKey)
      if (await recordOf(ed25519KeyId(pair.address))) {
        pair.seed.fill(0)
        return pair.address
      }
      return sealAndAdd(pair)
    },
    async hasKey(address) {
      return (await recordOf(ed25519KeyId(address))) !== undefined
    },
    async getSigner(address) {
      // Opened once to prove the key is there and usable, then again for each signature.
      ;(await seedOf(address)).fill(0)
      return ed25519Signer(address, () => seedOf(address))
    },
    async exportKey(address) {
      const seed = await seedOf(address)
      const secretKey = ed25519SecretKey(seed, ed25519PublicKey(address))
      seed.fill(0)
      return secretKey
    },
    ...(prepareKey ? { prepareKey } : {}),
  }
}

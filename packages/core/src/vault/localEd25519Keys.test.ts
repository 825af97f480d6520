import { randomBytes, verify } from 'node:crypto'
import { base58 } from '@scure/base'
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { rotateMasterKey } from '../rotateMasterKey.js'
import { memoryStorage } from '../storage/memoryStorage.js'
import type { Storage } from '../storage/types.js'
import { sealEnvelope } from './envelope.js'
import { localKeyVault } from './localKeyVault.js'
import { storageKeyRecordStore, vaultKeysCollection } from './storageKeyRecordStore.js'

const newMasterKey = () => new Uint8Array(randomBytes(32))
const vaultOn = (storage: Storage, masterKey: Uint8Array = newMasterKey()) =>
  localKeyVault({ masterKey, store: storageKeyRecordStore(storage) })
const keysOn = (storage: Storage, masterKey?: Uint8Array) => vaultOn(storage, masterKey).ed25519!
const idOf = (address: string) => `ed25519:${Buffer.from(base58.decode(address)).toString('hex')}`

/** OpenSSL's verdict (node:crypto), not the vault's own code. */
const verifies = (address: string, message: Uint8Array, signature: Uint8Array) =>
  verify(
    null,
    message,
    {
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(base58.decode(address)).toString('base64url') },
      format: 'jwk',
    },
    signature,
  )

const signs = async (keys: ReturnType<typeof keysOn>, address: string) => {
  const message = new Uint8Array(randomBytes(32))
  return verifies(address, message, await (await keys.getSigner(address)).signBytes(message))
}

describe('local vault, Ed25519 keys', () => {
  it('files each key as an envelope marked ed25519 under ed25519:<public key hex>, with no plaintext seed', async () => {
    const storage = memoryStorage()
    const keys = keysOn(storage)
    const addresses = [await keys.createKey(), await keys.importKey(new Uint8Array(randomBytes(32)))]
    const rows = await storage.query(vaultKeysCollection)
    expect(rows.map((row) => row.id).sort()).toEqual(addresses.map(idOf).sort())
    const stored = JSON.stringify(rows)
    for (const row of rows) expect(row.record).toMatchObject({ kind: 'envelope', algorithm: 'ed25519' })
    for (const address of addresses) {
      const secretKey = await keys.exportKey(address)
      const seed = Buffer.from(secretKey.subarray(0, 32))
      for (const spelling of [seed.toString('hex'), seed.toString('base64'), base58.encode(secretKey)])
        expect(stored.includes(spelling)).toBe(false)
    }
  })

  it('keeps secp256k1 records as they were written before Ed25519 (no algorithm field), and they still sign', async () => {
    const storage = memoryStorage()
    const masterKey = newMasterKey()
    const vault = vaultOn(storage, masterKey)
    const created = await vault.createKey()
    expect((await storage.get(vaultKeysCollection, created.toLowerCase()))?.record).not.toHaveProperty(
      'algorithm',
    )
    // A record as the vault wrote it before this change, filed by hand.
    const privateKey = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
    const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as Address
    const record = sealEnvelope(Buffer.from(privateKey.slice(2), 'hex'), masterKey, address)
    await storage.transaction([], (tx) =>
      tx.insert(vaultKeysCollection, { id: address.toLowerCase(), record }),
    )
    expect((await vault.getSigner(address)).address).toBe(address)
    expect(await vault.exportKey(address)).toBe(privateKey)
  })

  it('prepares a key that is held only once saved in a transaction that commits', async () => {
    const storage = memoryStorage()
    const keys = keysOn(storage)
    const rolledBack = await keys.prepareKey!()
    await expect(
      storage.transaction([], async (tx) => {
        await rolledBack.save(tx)
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect(await keys.hasKey(rolledBack.address)).toBe(false)
    const prepared = await keys.prepareKey!()
    expect(await keys.hasKey(prepared.address)).toBe(false)
    await storage.transaction([], (tx) => prepared.save(tx))
    expect(await keys.hasKey(prepared.address)).toBe(true)
    expect(await signs(keys, prepared.address)).toBe(true)
  })

  it('refuses a ciphertext moved to another key, or a secp256k1 record under an Ed25519 id, with key_decryption_failed', async () => {
    const storage = memoryStorage()
    const vault = vaultOn(storage)
    const keys = vault.ed25519!
    const [a, b] = [await keys.createKey(), await keys.createKey()]
    const evm = await vault.createKey()
    const move = async (sourceId: string, target: string) => {
      const row = await storage.get(vaultKeysCollection, sourceId)
      await storage.transaction([], (tx) =>
        tx.put(vaultKeysCollection, { id: idOf(target), record: row!.record }),
      )
    }
    await move(idOf(a), b)
    await expect(keys.getSigner(b)).rejects.toMatchObject({ code: 'key_decryption_failed' })
    await move(evm.toLowerCase(), b)
    await expect(keys.getSigner(b)).rejects.toMatchObject({ code: 'key_decryption_failed' })
    expect(await signs(keys, a)).toBe(true)
  })

  it('names a wrong master key master_key_mismatch', async () => {
    const storage = memoryStorage()
    const address = await keysOn(storage).createKey()
    await expect(keysOn(storage).getSigner(address)).rejects.toMatchObject({ code: 'master_key_mismatch' })
    await expect(keysOn(storage).exportKey(address)).rejects.toMatchObject({ code: 'master_key_mismatch' })
  })

  it('is re-sealed by master key rotation with the secp256k1 keys, and signs under the new key only', async () => {
    const storage = memoryStorage()
    const [from, to] = [newMasterKey(), newMasterKey()]
    const vault = vaultOn(storage, from)
    const addresses = [
      await vault.ed25519!.createKey(),
      await vault.ed25519!.importKey(new Uint8Array(randomBytes(32))),
    ]
    const evm = await vault.createKey()
    const secretKeys = await Promise.all(addresses.map((address) => vault.ed25519!.exportKey(address)))
    const result = await rotateMasterKey(storage, { from, to })
    expect(result.walletKeys).toEqual({ resealed: 3, skipped: 0 })
    expect(result.failed).toEqual([])
    const rotated = keysOn(storage, to)
    for (const [index, address] of addresses.entries()) {
      expect(await signs(rotated, address)).toBe(true)
      expect(Buffer.from(await rotated.exportKey(address)).equals(Buffer.from(secretKeys[index]!))).toBe(true)
      await expect(keysOn(storage, from).getSigner(address)).rejects.toMatchObject({
        code: 'master_key_mismatch',
      })
    }
    expect((await vaultOn(storage, to).getSigner(evm)).address).toBe(evm)
  })

  it('has no Ed25519 keys in HD mode (the phrase would not recover them)', () => {
    const vault = localKeyVault({
      mnemonic: 'test test test test test test test test test test test junk',
      store: storageKeyRecordStore(memoryStorage()),
    })
    expect(vault.ed25519).toBeUndefined()
  })
})

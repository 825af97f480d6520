import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Address } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, describe, expect, it } from 'vitest'
import { memoryStorage } from '../storage/memoryStorage.js'
import type { Storage } from '../storage/types.js'
import { runKeyVaultConformance } from '../testing/keyVaultConformance.js'
import { loadOrCreateMasterKey } from './loadOrCreateMasterKey.js'
import type { LocalKeyRecord } from './localKeyRecord.js'
import { localKeyVault } from './localKeyVault.js'
import { masterKeyFromEnv, parseMasterKey } from './masterKey.js'
import { memoryKeyVault } from './memoryKeyVault.js'
import { storageKeyRecordStore, vaultKeysCollection } from './storageKeyRecordStore.js'

const testMnemonic = 'test test test test test test test test test test test junk'
const otherMnemonic =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'
const knownKey = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'

const newMasterKey = () => new Uint8Array(randomBytes(32))
const randomVault = (storage: Storage = memoryStorage(), masterKey: Uint8Array | string = newMasterKey()) =>
  localKeyVault({ masterKey, store: storageKeyRecordStore(storage) })
const hdVault = (storage: Storage = memoryStorage(), mnemonic = testMnemonic) =>
  localKeyVault({ mnemonic, store: storageKeyRecordStore(storage) })

/** Everything the vault persisted, as one string. */
const persisted = async (storage: Storage) => JSON.stringify(await storage.query(vaultKeysCollection))

/** Replaces the record filed under `target` with a copy of the one under `source`. */
const moveRecord = async (
  storage: Storage,
  source: Address,
  target: Address,
  edit = (r: LocalKeyRecord) => r,
) => {
  const row = await storage.get(vaultKeysCollection, source.toLowerCase())
  await storage.transaction([], (tx) =>
    tx.put(vaultKeysCollection, { id: target.toLowerCase(), record: edit(row!.record) }),
  )
}

describe('local key vault, random keys', () =>
  runKeyVaultConformance({ describe, it, expect }, { create: () => randomVault() }))
describe('local key vault, HD mode', () =>
  runKeyVaultConformance(
    { describe, it, expect },
    { create: () => hdVault(), skip: { ed25519: 'HD mode holds no Ed25519 keys yet' } },
  ))
describe('memory key vault', () =>
  runKeyVaultConformance({ describe, it, expect }, { create: () => memoryKeyVault() }))

describe('local key vault guarantees', () => {
  it.each([
    ['random', randomVault],
    ['HD', hdVault],
  ] as const)('persists no plaintext key in %s mode, in any spelling', async (_mode, makeVault) => {
    const storage = memoryStorage()
    const vault = makeVault(storage)
    const addresses = [await vault.createKey(), await vault.createKey(), await vault.importKey(knownKey)]
    const stored = (await persisted(storage)).toLowerCase()
    for (const address of addresses) {
      const key = (await vault.exportKey(address)).slice(2)
      expect(stored.includes(key.toLowerCase())).toBe(false)
      expect(stored.includes(Buffer.from(key, 'hex').toString('base64').toLowerCase())).toBe(false)
    }
    expect(stored.includes('test test')).toBe(false)
  })

  it('refuses a ciphertext moved to another wallet with key_decryption_failed', async () => {
    const storage = memoryStorage()
    const vault = randomVault(storage)
    const [a, b] = [await vault.createKey(), await vault.createKey()]
    await moveRecord(storage, a, b)
    await expect(vault.getSigner(b)).rejects.toMatchObject({ code: 'key_decryption_failed' })
    // Also when the moved record claims the target address: the address is bound as associated data.
    await moveRecord(storage, a, b, (record) => ({ ...record, address: b.toLowerCase() }))
    await expect(vault.getSigner(b)).rejects.toMatchObject({ code: 'key_decryption_failed' })
    expect((await vault.getSigner(a)).address).toBe(a)
  })

  it('refuses an HD index record moved to another wallet with key_decryption_failed', async () => {
    const storage = memoryStorage()
    const vault = hdVault(storage)
    const [a, b] = [await vault.createKey(), await vault.createKey()]
    await moveRecord(storage, a, b)
    await expect(vault.getSigner(b)).rejects.toMatchObject({ code: 'key_decryption_failed' })
  })

  it('refuses a tampered ciphertext with key_decryption_failed', async () => {
    const storage = memoryStorage()
    const vault = randomVault(storage)
    const a = await vault.createKey()
    await moveRecord(storage, a, a, (record) => {
      if (record.kind !== 'envelope') throw new Error('expected an envelope')
      const data = Buffer.from(record.encryptedKey.data, 'base64')
      data[0] = data[0]! ^ 1
      return { ...record, encryptedKey: { ...record.encryptedKey, data: data.toString('base64') } }
    })
    await expect(vault.getSigner(a)).rejects.toMatchObject({ code: 'key_decryption_failed' })
  })

  it('names a wrong master key master_key_mismatch, and the right one still works', async () => {
    const storage = memoryStorage()
    const masterKey = newMasterKey()
    const address = await randomVault(storage, masterKey).createKey()
    await expect(randomVault(storage).getSigner(address)).rejects.toMatchObject({
      code: 'master_key_mismatch',
    })
    await expect(randomVault(storage).exportKey(address)).rejects.toMatchObject({
      code: 'master_key_mismatch',
    })
    const reopened = randomVault(storage, Buffer.from(masterKey).toString('hex'))
    expect((await reopened.getSigner(address)).address).toBe(address)
  })

  it('names a wrong mnemonic master_key_mismatch, for derived and imported keys', async () => {
    const storage = memoryStorage()
    const vault = hdVault(storage)
    const derived = await vault.createKey()
    const imported = await vault.importKey(knownKey)
    const other = hdVault(storage, otherMnemonic)
    await expect(other.getSigner(derived)).rejects.toMatchObject({ code: 'master_key_mismatch' })
    await expect(other.getSigner(imported)).rejects.toMatchObject({ code: 'master_key_mismatch' })
    await expect(randomVault(storage).getSigner(derived)).rejects.toMatchObject({
      code: 'master_key_mismatch',
    })
  })

  it('recovers the same addresses from the same mnemonic in a fresh vault', async () => {
    const first = hdVault()
    const created = [await first.createKey(), await first.createKey(), await first.createKey()]
    // Index 0 of the standard test mnemonic, as anvil and hardhat derive it.
    expect(created[0]).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    const fresh = hdVault()
    expect([await fresh.createKey(), await fresh.createKey(), await fresh.createKey()]).toEqual(created)
  })

  it('continues after the last used index when reopened on the same store', async () => {
    const storage = memoryStorage()
    const first = hdVault(storage)
    const created: Address[] = []
    for (let i = 0; i < 5; i += 1) created.push(await first.createKey())
    const reopened = hdVault(storage)
    const next = await reopened.createKey()
    expect(created.includes(next)).toBe(false)
    expect(next).toBe(mnemonicToAccount(testMnemonic, { addressIndex: 5 }).address)
    expect((await reopened.getSigner(created[2]!)).address).toBe(created[2])
  })

  it('creates distinct HD keys under concurrent calls', async () => {
    const vault = hdVault()
    const created = await Promise.all(Array.from({ length: 8 }, () => vault.createKey()))
    expect(new Set(created).size).toBe(8)
  })

  it('rejects a malformed address with validation_failed and an invalid mnemonic at construction', async () => {
    const vault = randomVault()
    await expect(vault.getSigner('0x123' as Address)).rejects.toMatchObject({ code: 'validation_failed' })
    expect(catchCode(() => hdVault(memoryStorage(), 'not a valid mnemonic phrase at all'))).toBe(
      'validation_failed',
    )
    expect(catchCode(() => randomVault(memoryStorage(), 'too short'))).toBe('validation_failed')
  })
})

describe('master key sources', () => {
  const dirs: string[] = []
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })

  it('creates the key file with mode 0600 on first use and reuses it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'agentwallet-vault-'))
    dirs.push(root)
    const dataDir = join(root, 'data')
    const [first, concurrent] = await Promise.all([
      loadOrCreateMasterKey({ dataDir }),
      loadOrCreateMasterKey({ dataDir }),
    ])
    expect((await stat(join(dataDir, 'master.key'))).mode & 0o777).toBe(0o600)
    expect(Buffer.from(concurrent).equals(Buffer.from(first))).toBe(true)
    const again = await loadOrCreateMasterKey({ dataDir })
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true)
    expect(first).toHaveLength(32)
  })

  it('reads AGENTWALLET_MASTER_KEY only from the env it is given', () => {
    const key = randomBytes(32)
    expect(masterKeyFromEnv({})).toBeUndefined()
    expect(Buffer.from(masterKeyFromEnv({ AGENTWALLET_MASTER_KEY: key.toString('hex') })!).equals(key)).toBe(
      true,
    )
    expect(catchCode(() => masterKeyFromEnv({ AGENTWALLET_MASTER_KEY: 'abc' }))).toBe('validation_failed')
  })

  it('parses hex, 0x-hex and base64 master keys', () => {
    const key = randomBytes(32)
    for (const spelling of [key.toString('hex'), `0x${key.toString('hex')}`, key.toString('base64')]) {
      expect(Buffer.from(parseMasterKey(spelling)).equals(key)).toBe(true)
    }
    expect(catchCode(() => parseMasterKey(randomBytes(16).toString('hex')))).toBe('validation_failed')
  })
})

/** The code of the error `fn` throws synchronously. */
function catchCode(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return (error as { code?: unknown }).code
  }
  return 'did not throw'
}

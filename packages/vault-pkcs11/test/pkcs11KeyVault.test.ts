import { randomBytes } from 'node:crypto'
import { ed25519Address as base58Address, ed25519PublicKey } from '@agentwallet/core'
import { runKeyVaultConformance } from '@agentwallet/core/testing'
import { ed25519 } from '@noble/curves/ed25519'
import { type Address, type Hex, recoverAddress, verifyMessage } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, describe, expect, it } from 'vitest'
import { createSoftHsmToken } from '../../../test/helpers/softHsmToken.js'
import { type Pkcs11KeyVault, type Pkcs11KeyVaultOptions, pkcs11KeyVault } from '../src/index.js'
import { loadPkcs11Module } from '../src/pkcs11Module.js'
import { keyId } from '../src/tokenKeys.js'

// One SoftHSM2 token for this file: the library reads its configuration once per process.
const token = createSoftHsmToken({ useInProcess: true })
const opened: Pkcs11KeyVault[] = []
const vault = (options: Partial<Pkcs11KeyVaultOptions> = {}) => {
  const made = pkcs11KeyVault({
    module: token.module,
    tokenLabel: token.tokenLabel,
    pin: token.pin,
    ...options,
  } as Pkcs11KeyVaultOptions)
  opened.push(made)
  return made
}
afterAll(async () => {
  // The note: how many signatures SoftHSM2 got wrong over this file.
  const total = (key: 'signatures' | 'badSignatures') =>
    opened.reduce((sum, made) => sum + made.stats()[key], 0)
  console.info(
    `[pkcs11 vault] ${JSON.stringify({ signatures: total('signatures'), badSignatures: total('badSignatures') })}`,
  )
  for (const made of opened) await made.close()
  token.cleanup()
})

runKeyVaultConformance({ describe, it, expect }, { create: () => vault() })

/** The attributes of the wallet's private key (by address, or by CKA_ID), read in a session of our own. */
const privateKeyAttributes = (address: Address | Buffer) => {
  const { lib, binding } = loadPkcs11Module(token.module)
  const slot = lib.C_GetSlotList(true).find((s) => lib.C_GetTokenInfo(s).label.trim() === token.tokenLabel)!
  const session = lib.C_OpenSession(slot, binding.CKF_SERIAL_SESSION)
  try {
    lib.C_FindObjectsInit(session, [
      { type: binding.CKA_CLASS, value: binding.CKO_PRIVATE_KEY },
      { type: binding.CKA_ID, value: Buffer.isBuffer(address) ? address : keyId(address) },
    ])
    const handles = lib.C_FindObjects(session, 10)
    lib.C_FindObjectsFinal(session)
    const read = (type: number) => lib.C_GetAttributeValue(session, handles[0]!, [{ type }])[0]!.value
    return {
      count: handles.length,
      sensitive: read(binding.CKA_SENSITIVE)[0],
      extractable: read(binding.CKA_EXTRACTABLE)[0],
      token: read(binding.CKA_TOKEN)[0],
      private: read(binding.CKA_PRIVATE)[0],
      keyType: read(binding.CKA_KEY_TYPE).readUIntLE(0, 4),
      params: read(binding.CKA_EC_PARAMS).toString('hex'),
      valueReadable: (() => {
        try {
          read(binding.CKA_VALUE)
          return true
        } catch {
          return false
        }
      })(),
    }
  } finally {
    lib.C_CloseSession(session)
  }
}

describe('pkcs11KeyVault on SoftHSM2', () => {
  it('declares keys that cannot leave the token, and keeps them sensitive and non-extractable in it', async () => {
    const hsm = vault()
    expect(hsm.capabilities).toEqual({ exportable: false, hd: false, encryptedAtRest: true })
    expect('exportKey' in hsm).toBe(false)
    const created = await hsm.createKey()
    const imported = await hsm.importKey(generatePrivateKey())
    // The vault's sessions hold the login for the process: our own session sees the objects.
    for (const address of [created, imported]) {
      expect(privateKeyAttributes(address)).toEqual({
        count: 1,
        sensitive: 1,
        extractable: 0,
        token: 1,
        private: 1,
        keyType: 3, // CKK_EC
        params: '06052b8104000a', // secp256k1
        valueReadable: false,
      })
    }
  })

  it('finds its keys again from the token alone, in a new vault with no other storage', async () => {
    const address = await vault().createKey()
    const again = vault()
    expect(await again.hasKey(address)).toBe(true)
    const message = 'found by CKA_ID'
    const signature = await (await again.getSigner(address)).signMessage({ message })
    expect(await verifyMessage({ address, message, signature })).toBe(true)
  })

  it('signs many hashes at once over its session pool, each low-s and recovering to the wallet', async () => {
    const hsm = vault({ sessions: 2 })
    const address = await hsm.createKey()
    const signer = await hsm.getSigner(address)
    const hashes = Array.from({ length: 24 }, (_, i) => `0x${(i + 1).toString(16).padStart(64, '0')}` as Hex)
    const signatures = await Promise.all(hashes.map((hash) => signer.sign!({ hash })))
    const halfOrder = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n
    for (const [i, signature] of signatures.entries()) {
      expect(BigInt(`0x${signature.slice(66, 130)}`) <= halfOrder).toBe(true)
      expect(await recoverAddress({ hash: hashes[i]!, signature })).toBe(address)
    }
    expect(hsm.stats().signatures - hsm.stats().badSignatures).toBe(24)
  })

  it('imports the same key twice at once as one object', async () => {
    const hsm = vault()
    const key = generatePrivateKey()
    const [a, b] = await Promise.all([hsm.importKey(key), hsm.importKey(key)])
    expect(a).toBe(privateKeyToAccount(key).address)
    expect(b).toBe(a)
    expect(privateKeyAttributes(a).count).toBe(1)
  })

  it('answers vault_unavailable while the token is gone, and works again when it is back', async () => {
    const hsm = vault()
    const address = await hsm.createKey()
    const signer = await hsm.getSigner(address)
    await hsm.probe()
    token.remove()
    try {
      await expect(hsm.probe()).rejects.toMatchObject({ code: 'vault_unavailable' })
      await expect(signer.signMessage({ message: 'gone' })).rejects.toMatchObject({
        code: 'vault_unavailable',
      })
      await expect(hsm.createKey()).rejects.toMatchObject({ code: 'vault_unavailable' })
      await expect(hsm.hasKey(address)).rejects.toMatchObject({ code: 'vault_unavailable' })
    } finally {
      token.restore()
    }
    await hsm.probe()
    const signature = await signer.signMessage({ message: 'back' })
    expect(await verifyMessage({ address, message: 'back', signature })).toBe(true)
  })

  it('refuses a wrong PIN with vault_error', async () => {
    // A fresh library state, so the wrong PIN is really asked of the token (the login is per process).
    for (const made of opened) await made.close()
    const wrong = vault({ pin: '000000' })
    await expect(wrong.createKey()).rejects.toMatchObject({ code: 'vault_error', details: { code: 0xa0 } })
    // Not tried again (an HSM may lock the user). Were it tried, it would pass now: the login is the
    // process's, and a vault with the right PIN has just logged it in.
    await vault().probe()
    await expect(wrong.probe()).rejects.toMatchObject({ code: 'vault_error', details: { code: 0xa0 } })
  })
})

describe('pkcs11KeyVault Ed25519 keys on SoftHSM2 (CKK_EC_EDWARDS, CKM_EDDSA)', () => {
  const idOf = (address: string) => Buffer.from(ed25519PublicKey(address))

  it('keeps them sensitive and non-extractable in the token, filed under their public key', async () => {
    const hsm = vault()
    expect(hsm.ed25519.exportKey).toBeUndefined()
    const created = await hsm.ed25519.createKey()
    const imported = await hsm.ed25519.importKey(new Uint8Array(randomBytes(32)))
    for (const address of [created, imported]) {
      expect(privateKeyAttributes(idOf(address))).toEqual({
        count: 1,
        sensitive: 1,
        extractable: 0,
        token: 1,
        private: 1,
        keyType: 0x40, // CKK_EC_EDWARDS
        // id-Ed25519 (1.3.101.112) as asked, or the printable string "edwards25519", which SoftHSM2
        // 2.6.1 writes on the private half of a pair it generates: PKCS#11 3.0 allows both.
        params: expect.stringMatching(/^(06032b6570|130c656477617264733235353139)$/),
        valueReadable: false,
      })
    }
  })

  it('finds them again from the token alone, and every signature verifies (noble) and was counted', async () => {
    const address = await vault().ed25519.createKey()
    const again = vault()
    expect(await again.ed25519.hasKey(address)).toBe(true)
    const signer = await again.ed25519.getSigner(address)
    const messages = Array.from({ length: 12 }, (_, i) => new Uint8Array(randomBytes(40 + i)))
    const signatures = await Promise.all(messages.map((message) => signer.signBytes(message)))
    for (const [i, signature] of signatures.entries())
      expect(ed25519.verify(signature, messages[i]!, ed25519PublicKey(address))).toBe(true)
    expect(again.stats()).toEqual({ signatures: 12, badSignatures: 0 })
  })

  it('imports the same key twice at once as one object', async () => {
    const hsm = vault()
    const seed = new Uint8Array(randomBytes(32))
    const [a, b] = await Promise.all([hsm.ed25519.importKey(seed), hsm.ed25519.importKey(seed)])
    expect(a).toBe(base58Address(ed25519.getPublicKey(seed)))
    expect(b).toBe(a)
    expect(privateKeyAttributes(idOf(a)).count).toBe(1)
  })

  it('answers vault_unavailable while the token is gone, and signs again when it is back', async () => {
    const hsm = vault()
    const address = await hsm.ed25519.createKey()
    const signer = await hsm.ed25519.getSigner(address)
    const message = new TextEncoder().encode('back')
    token.remove()
    try {
      await expect(signer.signBytes(message)).rejects.toMatchObject({ code: 'vault_unavailable' })
      await expect(hsm.ed25519.createKey()).rejects.toMatchObject({ code: 'vault_unavailable' })
    } finally {
      token.restore()
    }
    expect(ed25519.verify(await signer.signBytes(message), message, ed25519PublicKey(address))).toBe(true)
  })
})

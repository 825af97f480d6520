import { runKeyVaultConformance } from '@agentwallet/core/testing'
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

runKeyVaultConformance(
  { describe, it, expect },
  { create: () => vault(), skip: { ed25519: 'the PKCS#11 vault holds secp256k1 keys only' } },
)

/** The attributes of the wallet's private key, read in a session of our own. */
const privateKeyAttributes = (address: Address) => {
  const { lib, binding } = loadPkcs11Module(token.module)
  const slot = lib.C_GetSlotList(true).find((s) => lib.C_GetTokenInfo(s).label.trim() === token.tokenLabel)!
  const session = lib.C_OpenSession(slot, binding.CKF_SERIAL_SESSION)
  try {
    lib.C_FindObjectsInit(session, [
      { type: binding.CKA_CLASS, value: binding.CKO_PRIVATE_KEY },
      { type: binding.CKA_ID, value: keyId(address) },
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

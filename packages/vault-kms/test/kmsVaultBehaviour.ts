import { ed25519PublicKey as bs58, type KeyVault, memoryStorage, type Storage } from '@agentwallet/core'
import { ed25519 } from '@noble/curves/ed25519'
import { keccak256, parseSignature, recoverAddress, toHex } from 'viem'
import { describe, expect, it } from 'vitest'

/** What the behaviour tests steer on either fake KMS. */
export type SteerableKms<Fault extends string> = {
  fault: Fault | undefined
  badSignatures: number
  close(): Promise<void>
}

export type KmsVaultBehaviourOptions<Fault extends string> = {
  kms: () => SteerableKms<Fault>
  /** Faults that must read as `vault_unavailable`. */
  faults: readonly Fault[]
  vaultOn(storage?: Storage, onInvalidSignature?: (address: string) => void): KeyVault
  /** A vault on a second fake of its own, which the test stops. */
  vaultOnOwnKms(): Promise<{ vault: KeyVault; kms: SteerableKms<Fault> }>
  /** Import calls the fake has answered so far. */
  imports: () => number
}

const halfOrder = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n
const importedKey = '0x8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f'

/** The behaviour both KMS vaults share beyond the KeyVault conformance suite. */
export function runKmsVaultBehaviour<Fault extends string>(options: KmsVaultBehaviourOptions<Fault>) {
  const { vaultOn } = options
  describe('KMS vault behaviour', () => {
    it('signs with low s (the fake, like a KMS, returns high s half the time), also for a new vault on the same storage', async () => {
      const storage = memoryStorage()
      const address = await vaultOn(storage).createKey()
      const signer = await vaultOn(storage).getSigner(address)
      for (let i = 0; i < 12; i += 1) {
        const hash = keccak256(toHex(`message ${i}`))
        const signature = await signer.sign!({ hash })
        expect(BigInt(parseSignature(signature).s) <= halfOrder).toBe(true)
        expect(await recoverAddress({ hash, signature })).toBe(address)
      }
    })

    it('refuses a signature that does not recover to the key: asks again, and fails with vault_error after 3', async () => {
      const refused: string[] = []
      const vault = vaultOn(memoryStorage(), (address) => refused.push(address))
      const address = await vault.createKey()
      const signer = await vault.getSigner(address)
      const hash = keccak256(toHex('checked'))
      options.kms().badSignatures = 2
      expect(await recoverAddress({ hash, signature: await signer.sign!({ hash }) })).toBe(address)
      expect(refused).toEqual([address, address])
      options.kms().badSignatures = 3
      await expect(signer.signMessage({ message: 'never' })).rejects.toMatchObject({ code: 'vault_error' })
      expect(refused).toHaveLength(5)
      expect(vault.stats!()).toEqual({ signatures: 1, badSignatures: 5 })
      options.kms().badSignatures = 0
    })

    it('names throttling and service faults vault_unavailable, and works again after', async () => {
      const vault = vaultOn()
      const address = await vault.createKey()
      const signer = await vault.getSigner(address)
      for (const fault of options.faults) {
        options.kms().fault = fault
        try {
          await expect(signer.signMessage({ message: 'busy' })).rejects.toMatchObject({
            code: 'vault_unavailable',
          })
          await expect(vault.createKey()).rejects.toMatchObject({ code: 'vault_unavailable' })
          await expect(vault.probe!()).rejects.toMatchObject({ code: 'vault_unavailable' })
        } finally {
          options.kms().fault = undefined
        }
      }
      await vault.probe!()
      expect((await signer.signMessage({ message: 'back' })).length).toBe(132)
    })

    it('names a KMS that does not answer vault_unavailable', async () => {
      const { vault, kms } = await options.vaultOnOwnKms()
      await vault.probe!()
      await kms.close()
      await expect(vault.probe!()).rejects.toMatchObject({ code: 'vault_unavailable' })
      await expect(vault.createKey()).rejects.toMatchObject({ code: 'vault_unavailable' })
    })

    it('imports through the wrapping flow: the KMS key signs for the imported address', async () => {
      const vault = vaultOn()
      const before = options.imports()
      const address = await vault.importKey(importedKey)
      expect(options.imports() - before).toBe(1)
      const hash = keccak256(toHex('imported'))
      const signature = await (await vault.getSigner(address)).sign!({ hash })
      expect(await recoverAddress({ hash, signature })).toBe(address)
    })

    it('signs Ed25519 in the KMS: a signature that does not verify is asked again, counted, and refused after 3', async () => {
      const refused: string[] = []
      const vault = vaultOn(memoryStorage(), (address) => refused.push(address))
      const address = await vault.ed25519!.createKey()
      const signer = await vault.ed25519!.getSigner(address)
      const message = new TextEncoder().encode('a Solana transaction message')
      options.kms().badSignatures = 2
      const signature = await signer.signBytes(message)
      expect(ed25519.verify(signature, message, bs58(address))).toBe(true)
      expect(refused).toEqual([address, address])
      options.kms().badSignatures = 3
      await expect(signer.signBytes(message)).rejects.toMatchObject({ code: 'vault_error' })
      expect(vault.stats!()).toEqual({ signatures: 1, badSignatures: 5 })
      options.kms().badSignatures = 0
    })

    it('finds an Ed25519 key again in a new vault on the same storage, and imports none (not_implemented)', async () => {
      const storage = memoryStorage()
      const address = await vaultOn(storage).ed25519!.createKey()
      const again = vaultOn(storage)
      expect(await again.ed25519!.hasKey(address)).toBe(true)
      const message = new Uint8Array(300).fill(7)
      expect(
        ed25519.verify(
          await (await again.ed25519!.getSigner(address)).signBytes(message),
          message,
          bs58(address),
        ),
      ).toBe(true)
      const before = options.imports()
      await expect(again.ed25519!.importKey(ed25519.utils.randomPrivateKey())).rejects.toMatchObject({
        code: 'not_implemented',
      })
      // Refused before any import call reached the KMS.
      expect(options.imports()).toBe(before)
    })
  })
}

import {
  type Address,
  parseEther,
  recoverTransactionAddress,
  type TransactionSerialized,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { KeyVault } from '../vault/types.js'
import { runEd25519Conformance } from './ed25519Conformance.js'
import { type TestRunner, testOrSkip } from './testRunner.js'

export type KeyVaultConformanceOptions = {
  /** A fresh, empty vault per call. */
  create: () => Promise<KeyVault> | KeyVault
  /** Groups to skip, each with the reason shown in the test name. */
  skip?: {
    export?: string | undefined
    /** Required when the vault has no `ed25519` keys: why not (its Ed25519 cases are skipped with it). */
    ed25519?: string | undefined
  }
}

// A published example key (web3.js docs), outside the standard test mnemonic an HD vault may use.
const knownKey = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318'
const knownAddress = '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23'
/** An address no vault under test holds. */
const unknownAddress = () => privateKeyToAccount(generatePrivateKey()).address

const typedData = {
  domain: { name: 'AgentWallet', version: '1', chainId: 31337, verifyingContract: knownAddress },
  types: {
    Mail: [
      { name: 'to', type: 'address' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  message: { to: knownAddress, contents: 'hello' },
} as const

/**
 * Registers the KeyVault conformance tests with the given test runner.
 * @example
 * import { describe, expect, it } from 'vitest'
 * import { runKeyVaultConformance } from '@agentwallet/core/testing'
 * runKeyVaultConformance({ describe, it, expect }, { create: () => myVault() })
 */
export const runKeyVaultConformance = (runner: TestRunner, options: KeyVaultConformanceOptions) => {
  const { it, expect } = runner
  const create = async () => options.create()

  runner.describe('KeyVault conformance', () => {
    it('creates distinct keys it then holds, under any address case', async () => {
      const vault = await create()
      const a = await vault.createKey()
      const b = await vault.createKey()
      expect(/^0x[0-9a-fA-F]{40}$/.test(a)).toBe(true)
      expect(a === b).toBe(false)
      expect(await vault.hasKey(a)).toBe(true)
      expect(await vault.hasKey(a.toLowerCase() as Address)).toBe(true)
      expect(await vault.hasKey(unknownAddress())).toBe(false)
      expect((await vault.getSigner(a.toLowerCase() as Address)).address).toBe(a)
    })

    it('imports a key as its checksummed address, and again as the same address', async () => {
      const vault = await create()
      expect(await vault.importKey(knownKey)).toBe(knownAddress)
      expect(await vault.importKey(knownKey)).toBe(knownAddress)
      expect(await vault.importKey(knownKey.toUpperCase().replace('0X', '0x') as `0x${string}`)).toBe(
        knownAddress,
      )
      expect(await vault.hasKey(knownAddress)).toBe(true)
      expect((await vault.getSigner(knownAddress)).address).toBe(knownAddress)
    })

    it('signs messages, typed data and transactions that viem verifies', async () => {
      const vault = await create()
      const address = await vault.createKey()
      const signer = await vault.getSigner(address)
      const message = 'agentwallet conformance'
      const messageSignature = await signer.signMessage({ message })
      expect(await verifyMessage({ address, message, signature: messageSignature })).toBe(true)
      const typedSignature = await signer.signTypedData(typedData)
      expect(await verifyTypedData({ ...typedData, address, signature: typedSignature })).toBe(true)
      const serializedTransaction = await signer.signTransaction({
        chainId: 31337,
        type: 'eip1559',
        to: knownAddress,
        value: parseEther('0.01'),
        nonce: 0,
        gas: 21_000n,
        maxFeePerGas: 2_000_000_000n,
        maxPriorityFeePerGas: 1_000_000_000n,
      })
      expect(
        await recoverTransactionAddress({
          serializedTransaction: serializedTransaction as TransactionSerialized,
        }),
      ).toBe(address)
    })

    it('rejects an unknown address with not_found', async () => {
      const vault = await create()
      await expect(vault.getSigner(unknownAddress())).rejects.toMatchObject({ code: 'not_found' })
    })

    it('rejects an invalid private key with validation_failed', async () => {
      const vault = await create()
      const invalid = [
        '0x1234',
        `0x${'zz'.repeat(32)}`,
        knownKey.slice(2),
        `0x${'0'.repeat(64)}`,
        // The secp256k1 group order n: not a valid key.
        '0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141',
      ]
      for (const value of invalid) {
        await expect(vault.importKey(value as `0x${string}`)).rejects.toMatchObject({
          code: 'validation_failed',
        })
      }
    })

    testOrSkip(
      runner,
      'exports the key of an address when it declares exportable',
      options.skip?.export,
      async () => {
        const vault = await create()
        if (!vault.capabilities.exportable) {
          expect(vault.exportKey).toBeUndefined()
          return
        }
        const address = await vault.createKey()
        const exported = await vault.exportKey!(address)
        expect(privateKeyToAccount(exported).address).toBe(address)
        await expect(vault.exportKey!(unknownAddress())).rejects.toMatchObject({ code: 'not_found' })
      },
    )

    const ed25519Skip = options.skip?.ed25519
    if (ed25519Skip === undefined) runEd25519Conformance(runner, create)
    else testOrSkip(runner, 'Ed25519 keys', ed25519Skip, async () => {})
  })
}

import type { Address, Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { NotFoundError } from '../errors/errors.js'
import type { LocalEd25519Keys } from './localEd25519Keys.js'
import { memoryEd25519Keys } from './memoryEd25519Keys.js'
import type { KeyVault } from './types.js'
import { parsePrivateKey, vaultAddressId } from './vaultAddress.js'

export type MemoryKeyVaultOptions = { name?: string | undefined }

/**
 * A KeyVault that keeps plaintext keys in a Map: for tests only, never for real funds.
 * @example const vault = memoryKeyVault(); const address = await vault.createKey()
 */
export const memoryKeyVault = (
  options: MemoryKeyVaultOptions = {},
): KeyVault & { exportKey(address: Address): Promise<Hex>; readonly ed25519: LocalEd25519Keys } => {
  const keys = new Map<string, Hex>()

  const keyOf = async (address: Address): Promise<Hex> => {
    const key = keys.get(vaultAddressId(address))
    if (key === undefined) throw new NotFoundError('Key', { details: { address } })
    return key
  }

  return {
    name: options.name ?? 'memory',
    capabilities: { exportable: true, hd: false, encryptedAtRest: false },
    async createKey() {
      const privateKey = generatePrivateKey()
      const { address } = privateKeyToAccount(privateKey)
      keys.set(vaultAddressId(address), privateKey)
      return address
    },
    async importKey(value) {
      const { privateKey, address } = parsePrivateKey(value)
      keys.set(vaultAddressId(address), privateKey)
      return address
    },
    async hasKey(address) {
      return keys.has(vaultAddressId(address))
    },
    async getSigner(address) {
      return privateKeyToAccount(await keyOf(address))
    },
    exportKey: keyOf,
    ed25519: memoryEd25519Keys(),
  }
}

import { randomBytes } from 'node:crypto'
import type { Address } from 'viem'
import { type LocalEd25519Keys, localEd25519Keys } from './localEd25519Keys.js'
import type { LocalKeyRecord } from './localKeyRecord.js'

/**
 * The memory test vault's Ed25519 keys: the local vault's, over a Map and a wrapping key that lives
 * as long as the vault. Never for real funds.
 * @example const keys = memoryEd25519Keys(); const address = await keys.createKey()
 */
export const memoryEd25519Keys = (): LocalEd25519Keys => {
  const records = new Map<string, LocalKeyRecord>()
  const wrappingKey = new Uint8Array(randomBytes(32))
  return localEd25519Keys({
    store: {
      get: async (id: Address) => records.get(id),
      async add(id: Address, record: LocalKeyRecord) {
        if (records.has(id)) return false
        records.set(id, record)
        return true
      },
    },
    wrappingKey: async () => wrappingKey,
  })
}

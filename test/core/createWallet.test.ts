import type { Storage } from '@agentwallet/core'
import { memoryStorage, vaultKeysCollection } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentWalletOn, startDevnet } from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(async () => {
  await devnet.close()
})

/** Memory storage whose transactions are counted, and whose wallet commits fail while `failWallets` is set. */
function instrumentedStorage() {
  const inner = memoryStorage()
  const state = { transactions: 0, failWallets: false }
  const storage = new Proxy(inner, {
    get(target, property, receiver) {
      if (property !== 'transaction') return Reflect.get(target, property, receiver)
      return (keys: readonly string[], fn: Parameters<Storage['transaction']>[1]) => {
        state.transactions++
        const failing = state.failWallets && keys.some((key) => key.startsWith('wallet-address:'))
        return target.transaction(keys, async (tx) => {
          const result = await fn(tx)
          if (failing) throw new Error('the disk is full')
          return result
        })
      }
    },
  })
  return { storage, state }
}

describe('createWallet', () => {
  it('commits the vault key and the wallet together, in one transaction', async () => {
    const { storage, state } = instrumentedStorage()
    const aw = await agentWalletOn(devnet, { storage })
    try {
      const before = state.transactions
      const { wallet } = await aw.createWallet({ agentName: 'one-commit' })
      expect(state.transactions - before).toBe(1)
      expect(await storage.get(vaultKeysCollection, wallet.address.toLowerCase())).toBeDefined()
      // The key stored in that commit signs for the wallet.
      await devnet.faucet(wallet.address, 10n ** 18n)
      const sent = await aw.send({ wallet: wallet.address, to: devnet.accounts[2]!.address, value: '0.001' })
      expect(sent.transaction.hash).toMatch(/^0x[0-9a-f]{64}$/)
    } finally {
      await aw.close()
    }
  })

  it('leaves no vault key behind when the wallet’s commit fails', async () => {
    const { storage, state } = instrumentedStorage()
    const aw = await agentWalletOn(devnet, { storage })
    try {
      state.failWallets = true
      await expect(aw.createWallet({ agentName: 'doomed' })).rejects.toMatchObject({ code: 'internal' })
      expect(await storage.count(vaultKeysCollection)).toBe(0)
      expect(await storage.count('wallets')).toBe(0)
    } finally {
      await aw.close()
    }
  })
})

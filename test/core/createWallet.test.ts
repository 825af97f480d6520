import { vaultKeysCollection } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countingStorage } from '../helpers/countingStorage.js'
import { agentWalletOn, startDevnet } from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(async () => {
  await devnet.close()
})

/** Counted storage whose wallet commits fail while `failing.wallets` is set. */
function instrumentedStorage() {
  const failing = { wallets: false }
  const { storage, counts } = countingStorage(async (keys, work) => {
    const result = await work()
    if (failing.wallets && keys.some((key) => key.startsWith('wallet-address:')))
      throw new Error('the disk is full')
    return result
  })
  return { storage, counts, failing }
}

describe('createWallet', () => {
  it('commits the vault key and the wallet together, in one transaction', async () => {
    const { storage, counts } = instrumentedStorage()
    const aw = await agentWalletOn(devnet, { storage })
    try {
      const before = counts.all
      const { wallet } = await aw.createWallet({ agentName: 'one-commit' })
      expect(counts.all - before).toBe(1)
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
    const { storage, failing } = instrumentedStorage()
    const aw = await agentWalletOn(devnet, { storage })
    try {
      failing.wallets = true
      await expect(aw.createWallet({ agentName: 'doomed' })).rejects.toMatchObject({ code: 'internal' })
      expect(await storage.count(vaultKeysCollection)).toBe(0)
      expect(await storage.count('wallets')).toBe(0)
    } finally {
      await aw.close()
    }
  })
})

import { trackTransactions } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countingStorage } from '../helpers/countingStorage.js'
import { agentWalletOn, freshAddress, startDevnet } from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(async () => {
  await devnet.close()
})

describe('send commits', () => {
  it('makes one commit before the broadcast (intent, raw tx and nonce), and saves submitted and mined statuses in batches', async () => {
    const { storage, counts } = countingStorage()
    // The commits made by the time each raw tx reaches the node.
    const commitsAtBroadcast: number[] = []
    const aw = await agentWalletOn(devnet, {
      storage,
      track: false,
      chains: {
        devnet: {
          provider: {
            request: (args: { method: string; params?: unknown }) => {
              if (args.method === 'eth_sendRawTransaction') commitsAtBroadcast.push(counts.unlocked)
              return devnet.provider.request(args as Parameters<Devnet['provider']['request']>[0])
            },
          },
          chainId: devnet.chain.id,
          contracts: devnet.addressBook,
        },
      },
    })
    try {
      const wallets = await Promise.all(
        [1, 2, 3, 4].map(async (i) => (await aw.createWallet({ agentName: `commits-${i}` })).wallet),
      )
      for (const wallet of wallets) await devnet.faucet(wallet.address, parseEther('1'))

      const before = counts.unlocked
      const one = await aw.send({ wallet: wallets[0]!.address, to: freshAddress(), value: '0.001' })
      expect(one.status).toBe('submitted')
      expect(commitsAtBroadcast).toEqual([before + 1])
      // The stored record is signed in that one commit; it turns submitted in a later batch.
      const stored = await storage.get('transactions', one.transaction.id)
      expect(stored).toMatchObject({ nonce: 0, hash: one.transaction.hash })
      await expect
        .poll(async () => (await storage.get('transactions', one.transaction.id))?.status, {
          message: 'the submitted status saved',
        })
        .toBe('submitted')

      // Four wallets at once.
      const sent = await Promise.all(
        wallets.map((wallet) => aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.001' })),
      )
      expect(sent.map((answer) => answer.status)).toEqual([
        'submitted',
        'submitted',
        'submitted',
        'submitted',
      ])
      await expect
        .poll(async () => (await storage.query('transactions', { where: { status: 'submitted' } })).length, {
          message: 'all five submitted statuses saved',
        })
        .toBe(5)

      // One tracker pass confirms all five in one commit, not one per receipt.
      const beforePass = counts.all
      await trackTransactions(aw.context)
      expect(await storage.count('transactions', { where: { status: 'confirmed' } })).toBe(5)
      expect(counts.all - beforePass).toBe(1)
    } finally {
      await aw.close()
    }
  })
})

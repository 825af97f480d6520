import { type AgentWallet, BaseError, memoryStorage, type Storage } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentWalletOn, startDevnet } from '../helpers/devnetAgentWallet.js'

// A catch handles the one case it means; every other error reaches the caller or onBackgroundError.

let devnet: Devnet
beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(async () => {
  await devnet?.close()
})

/** Memory storage whose wallet reads fail while `failing.on` is set. */
function storageFailingWalletReads(failing: { on: boolean }): Storage {
  const storage = memoryStorage()
  const query: Storage['query'] = (collection, options) =>
    failing.on && collection === 'wallets'
      ? Promise.reject(new BaseError('internal', 'the wallet table is unreadable'))
      : storage.query(collection, options)
  return Object.assign(Object.create(storage) as Storage, { query })
}

describe('quoteSwap without a named wallet', () => {
  let aw: AgentWallet
  const failing = { on: false }
  beforeAll(async () => {
    aw = await agentWalletOn(devnet, { storage: storageFailingWalletReads(failing) })
  })
  afterAll(async () => {
    await aw?.close()
  })

  it('quotes with no taker when the caller has no wallet', async () => {
    const quote = await aw.quoteSwap({ fromToken: 'ETH', toToken: 'USDC', amount: '1' })
    expect(BigInt(quote.best.amountOutRaw)).toBeGreaterThan(0n)
  })

  it('answers a storage failure as that failure, not as "no wallet"', async () => {
    failing.on = true
    try {
      await expect(aw.quoteSwap({ fromToken: 'ETH', toToken: 'USDC', amount: '1' })).rejects.toMatchObject({
        code: 'internal',
        shortMessage: 'the wallet table is unreadable',
      })
    } finally {
      failing.on = false
    }
  })
})

describe("an event subscriber's throw", () => {
  it('reaches onBackgroundError, and the action that committed still answers', async () => {
    const heard: unknown[] = []
    const aw = await agentWalletOn(devnet, { onBackgroundError: (error) => heard.push(error) })
    try {
      const failure = new Error('subscriber failed')
      aw.bus.on('wallet.created', () => {
        throw failure
      })
      const later: string[] = []
      aw.bus.on('*', (event) => later.push(event.type))
      const { wallet } = await aw.createWallet({ agentName: 'subscribed' })
      await expect.poll(() => heard).toEqual([failure])
      expect(later).toContain('wallet.created')
      expect((await aw.getWallet({ wallet: wallet.address })).wallet.address).toBe(wallet.address)
    } finally {
      await aw.close()
    }
  })
})

import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appendWalletEvents } from '../helpers/appendWalletEvents.js'
import { countingStorage } from '../helpers/countingStorage.js'
import { agentWalletOn, startDevnet } from '../helpers/devnetAgentWallet.js'
import { startReceiver } from '../helpers/webhookReceiver.js'

/** A poll interval far beyond any test: whatever is delivered here was not waiting for it. */
const webhooks = { allowPrivateTargets: ['127.0.0.0/8'], intervalMs: 600_000, timeoutMs: 5_000 }

let devnet: Devnet
beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(async () => {
  await devnet.close()
})

describe('webhook worker', () => {
  it('runs again at once after a pass that used up its budget, committing once per batch, in order, on kept-alive sockets', async () => {
    const { storage, counts } = countingStorage()
    const aw: AgentWallet = await agentWalletOn(devnet, { storage, webhooks })
    const receiver = await startReceiver()
    try {
      const { subscription } = await aw.subscribeWebhook({ url: receiver.url, events: ['wallet.created'] })
      const before = counts.unlocked
      // More than one pass's budget (500), committed at once: one wake-up, then only the budget's rerun.
      await appendWalletEvents(storage, 650, 'evt_worker')
      await expect
        .poll(() => receiver.received.length, { timeout: 20_000, message: 'all 650 events delivered' })
        .toBe(650)
      const seqs = receiver.received.map((entry) => entry.json.seq)
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
      expect(new Set(seqs).size).toBe(650)
      // Over kept-alive sockets, not a connection per delivery.
      expect(receiver.connections()).toBeLessThan(10)
      // The append, then a commit per batch of at most 100 (7 at least), not one per delivery.
      expect(counts.unlocked - before).toBeLessThan(20)
      // Every one listed as delivered once the last batch commits (after its answer), though none
      // has a record of its own: they are kept in batch records.
      const delivered = async () =>
        (await aw.listWebhookDeliveries({ subscriptionId: subscription.id, status: 'delivered' })).count
      await expect.poll(delivered, { timeout: 5_000 }).toBe(650)
      expect(await storage.count('webhook_deliveries')).toBe(0)
    } finally {
      await receiver.close()
      await aw.close()
    }
  })

  it('works subscriptions concurrently: one receiver holding its answer does not stall another', async () => {
    const aw = await agentWalletOn(devnet, { webhooks })
    // /slow answers only once /fast has been reached: worked one after another, /slow would time out.
    let releaseSlow: () => void = () => {}
    const fastReached = new Promise<void>((resolve) => (releaseSlow = resolve))
    const server = createServer((request, response) => {
      request.resume()
      request.on('end', () => {
        if (request.url === '/fast') {
          releaseSlow()
          response.writeHead(200).end('ok')
        } else void fastReached.then(() => response.writeHead(200).end('ok'))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const slow = await aw.subscribeWebhook({ url: `${base}/slow`, events: ['wallet.created'] })
      await aw.subscribeWebhook({ url: `${base}/fast`, events: ['wallet.created'] })
      await aw.createWallet({ agentName: 'both' })
      const attemptsOfSlow = async () =>
        (await aw.listWebhookDeliveries({ subscriptionId: slow.subscription.id })).deliveries[0]?.attempts
      await expect
        .poll(attemptsOfSlow, { timeout: 15_000, message: 'the /slow delivery attempted' })
        .toHaveLength(1)
      expect((await attemptsOfSlow())?.[0]).toMatchObject({ ok: true, statusCode: 200 })
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await aw.close()
    }
  })
})

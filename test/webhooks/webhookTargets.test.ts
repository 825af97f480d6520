import { type AgentWallet, createAgentWallet, memoryStorage, type WebhookLookup } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentWalletOn, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'
import { startReceiver } from '../helpers/webhookReceiver.js'

/** The addresses the probe got past subscribe (issue 15, item 4), as URL hosts. */
const probed = [
  '[64:ff9b::127.0.0.1]',
  '[64:ff9b::a9fe:a9fe]',
  '[::127.0.0.1]',
  '[::ffff:0:127.0.0.1]',
  '[2002:7f00:1::]',
  '[2001::1]',
  '192.0.2.1',
  '198.51.100.7',
]

/**
 * What the stub resolver answers, per host name: a queue of answers (each one or more addresses,
 * comma-separated) taken one per lookup, the last one repeated. The tests name hosts under `.test`,
 * which no real resolver answers.
 */
const dns = new Map<string, string[]>()
const stubLookup: WebhookLookup = async (hostname) => {
  const queue = dns.get(hostname) ?? []
  const answer = queue.length > 1 ? queue.shift() : queue[0]
  if (answer === undefined) throw Object.assign(new Error(`no answer for ${hostname}`), { code: 'ENOTFOUND' })
  return answer.split(',').map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
}

let devnet: Devnet
let aw: AgentWallet

// 127.0.0.2 is the one private address this operator allows: it stands in for a public address in
// the rebinding test (both pass the check, and a test cannot own a public address).
useDevnetAgentWallet((started) => ({ devnet, aw } = started), {
  webhooks: {
    allowPrivateTargets: ['127.0.0.2/32'],
    lookup: stubLookup,
    intervalMs: 20,
    backoffBaseMs: 20,
    backoffMaxMs: 100,
    timeoutMs: 2_000,
    maxAttempts: 2,
    disableAfterDeadLetters: 1_000,
  },
})

let strict: AgentWallet
beforeAll(async () => {
  strict = await agentWalletOn(devnet, { webhooks: { lookup: stubLookup } })
})
afterAll(async () => {
  await strict?.close()
})

/** The subscription's deliveries once the first one is no longer pending. */
async function settledDeliveries(subscriptionId: string) {
  await expect
    .poll(
      async () =>
        (await aw.listWebhookDeliveries({ subscriptionId })).deliveries.find(
          (delivery) => delivery.status !== 'pending',
        )?.status,
      { timeout: 15_000, message: `a delivery of ${subscriptionId} to leave pending` },
    )
    .toBeDefined()
  return (await aw.listWebhookDeliveries({ subscriptionId })).deliveries
}

describe('webhook targets (SSRF)', () => {
  it('refuses at subscribe every address the probe got through: NAT64, IPv4-compatible/translated, 6to4, Teredo, documentation', async () => {
    for (const host of probed) {
      await expect(
        strict.subscribeWebhook({ url: `http://${host}/hook`, events: ['*'] }),
        host,
      ).rejects.toMatchObject({ code: 'validation_failed', details: { reason: 'private_address' } })
      // An allowance of one loopback address lets none of them through either.
      await expect(
        aw.subscribeWebhook({ url: `http://${host}/hook`, events: ['*'] }),
        host,
      ).rejects.toMatchObject({ code: 'validation_failed', details: { reason: 'private_address' } })
    }
  })

  it('refuses at delivery a host that resolves to any of them by then, and sends nothing', async () => {
    const receiver = await startReceiver(() => 200, { host: '127.0.0.2' })
    try {
      const subscriptions: string[] = []
      for (const [index, address] of probed.entries()) {
        const host = `moved-${index}.test`
        dns.set(host, ['127.0.0.2'])
        const { subscription } = await aw.subscribeWebhook({
          url: `http://${host}:${receiver.port}/hook`,
          events: ['wallet.created'],
        })
        dns.set(host, [address.replace(/^\[|\]$/g, '')])
        subscriptions.push(subscription.id)
      }
      await aw.createWallet({ agentName: 'moved' })
      for (const id of subscriptions) {
        const [delivery] = await settledDeliveries(id)
        expect(delivery).toMatchObject({ status: 'dead' })
        // Refused before any connection: one attempt, final, no status.
        expect(delivery!.attempts).toEqual([
          expect.objectContaining({ ok: false, statusCode: null, error: 'private_address' }),
        ])
      }
      expect(receiver.received).toEqual([])
    } finally {
      await receiver.close()
    }
  })

  it('retries a host that stops resolving (a DNS failure may pass), where a refused address is final', async () => {
    dns.set('gone.test', ['127.0.0.2'])
    const { subscription } = await aw.subscribeWebhook({
      url: 'http://gone.test:9/hook',
      events: ['wallet.created'],
    })
    dns.delete('gone.test')
    await aw.createWallet({ agentName: 'gone' })
    await expect
      .poll(
        async () =>
          (await aw.listWebhookDeliveries({ subscriptionId: subscription.id })).deliveries[0]?.status,
        {
          timeout: 15_000,
          message: 'the delivery to an unresolvable host to be dead-lettered',
        },
      )
      .toBe('dead')
    const [delivery] = (await aw.listWebhookDeliveries({ subscriptionId: subscription.id })).deliveries
    // maxAttempts is 2 here: both spent, each failing on the lookup.
    expect(delivery!.attempts.map((attempt) => attempt.error)).toEqual(['unresolvable', 'unresolvable'])
  })

  it('connects to the address it checked: a DNS answer that turns to loopback after the check never reaches loopback', async () => {
    // One port on two addresses: the allowed one, and loopback where the rebinding would land.
    const allowed = await startReceiver(() => 200, { host: '127.0.0.2' })
    const loopback = await startReceiver(() => 200, { host: '127.0.0.1', port: allowed.port })
    try {
      // Allowed for the subscribe check and the delivery's check; loopback for every lookup after.
      dns.set('rebind.test', ['127.0.0.2', '127.0.0.2', '127.0.0.1'])
      const { subscription } = await aw.subscribeWebhook({
        url: `http://rebind.test:${allowed.port}/hook`,
        events: ['wallet.created'],
      })
      await aw.createWallet({ agentName: 'rebind' })
      const [delivery] = await settledDeliveries(subscription.id)
      expect(delivery).toMatchObject({ status: 'delivered' })
      expect(allowed.received).toHaveLength(1)
      expect(allowed.received[0]?.headers.host).toBe(`rebind.test:${allowed.port}`)
      expect(loopback.received).toEqual([])
      // A private target's reply is measured, never kept: a tenant admin cannot read an internal service.
      expect(delivery!.attempts[0]).toMatchObject({ ok: true, statusCode: 200, responseBytes: 2 })
      expect(delivery!.attempts[0]?.responseExcerpt).toBeUndefined()
    } finally {
      await allowed.close()
      await loopback.close()
    }
  })

  it('lets exactly the allowed CIDRs through', async () => {
    const accepted = await aw.subscribeWebhook({ url: 'http://127.0.0.2:9/hook', events: ['*'] })
    await aw.deleteWebhook({ subscriptionId: accepted.subscription.id })
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://127.0.0.3:9/hook',
      'http://[::1]:9/hook',
      'http://[::ffff:127.0.0.2]:9/hook',
      'http://10.0.0.1/hook',
    ]) {
      await expect(aw.subscribeWebhook({ url, events: ['*'] }), url).rejects.toMatchObject({
        code: 'validation_failed',
        details: { reason: 'private_address' },
      })
    }
    // A name is judged by every address it answers: one outside the allowance refuses it.
    dns.set('mixed.test', ['127.0.0.2,127.0.0.1'])
    await expect(aw.subscribeWebhook({ url: 'http://mixed.test/hook', events: ['*'] })).rejects.toMatchObject(
      { code: 'validation_failed', details: { reason: 'private_address' } },
    )
  })

  it('refuses at start an allowance that is not a list of CIDRs, and the old `true`', async () => {
    for (const allowPrivateTargets of [true, ['127.0.0.0/8', 'localhost'], ['10.0.0.0/33']] as const) {
      await expect(
        createAgentWallet({
          chains: { devnet: { provider: devnet.provider, chainId: devnet.chain.id } },
          storage: memoryStorage(),
          track: false,
          webhooks: { allowPrivateTargets: allowPrivateTargets as unknown as string[] },
        }),
        JSON.stringify(allowPrivateTargets),
      ).rejects.toMatchObject({ code: 'validation_failed' })
    }
  })
})

import { type AgentWallet, createAgentWallet, memoryStorage } from '@agentwallet/core'
import { createDevnet, type Devnet } from '@agentwallet/devnet'
import { createApp, type RunningServer } from '@agentwallet/koa'
import { Webhook } from 'standardwebhooks'
import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReceiver } from '../../../test/helpers/webhookReceiver.js'

const adminKey = 'aw_test_webhooks_admin_key_0123456789abcd'
let devnet: Devnet
let agentWallet: AgentWallet
let server: RunningServer

async function call(method: string, path: string, body?: unknown, key = adminKey) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as any }
}

beforeAll(async () => {
  devnet = await createDevnet()
  agentWallet = await createAgentWallet({
    chains: {
      devnet: { provider: devnet.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
    },
    storage: memoryStorage(),
    defaultTenantRules: [],
    trackerIntervalMs: 20,
    webhooks: { allowPrivateTargets: ['127.0.0.0/8'], intervalMs: 20, backoffBaseMs: 20, backoffMaxMs: 100 },
  })
  await agentWallet.bootstrapAdmin({ adminKey })
  server = await createApp({ agentWallet, rateLimit: false }).listen({ port: 0 })
})
afterAll(async () => {
  await server?.close()
  await agentWallet?.close()
  await devnet?.close()
})

describe('webhooks over HTTP', () => {
  it('subscribe → signed tx_confirmed delivery → logs and history → retry → delete', async () => {
    const receiver = await startReceiver()
    try {
      const subscribed = await call('POST', '/webhooks/subscribe', {
        url: receiver.url,
        events: ['tx_confirmed'],
      })
      expect(subscribed.status).toBe(201)
      const { secret, subscription } = subscribed.body
      expect(secret).toMatch(/^whsec_/)

      const listed = await call('GET', '/webhooks/list')
      expect(listed.body.count).toBe(1)
      expect(JSON.stringify(listed.body)).not.toContain(secret.slice(6))

      const wallet = (await call('POST', '/wallet/create', { agentName: 'hooked' })).body.wallet
      await devnet.faucet(wallet.address, parseEther('1'))
      const sent = await call('POST', `/wallet/${wallet.address}/send`, {
        to: devnet.accounts[2]!.address,
        value: '0.01',
      })
      expect(sent.status).toBe(200)

      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1)
      const [delivery] = receiver.received
      expect(() =>
        new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>),
      ).not.toThrow()
      expect(delivery!.json).toMatchObject({
        type: 'tx_confirmed',
        data: { hash: sent.body.transaction.hash },
      })

      const logs = await call('GET', '/webhooks/logs')
      const history = await call('GET', '/webhooks/history')
      expect(logs.status).toBe(200)
      expect(history.body.deliveries).toEqual(logs.body.deliveries)
      const logged = logs.body.deliveries[0]
      expect(logged).toMatchObject({
        status: 'delivered',
        webhookEvent: 'tx_confirmed',
        eventId: delivery!.json.id,
      })
      expect(logged.attempts[0]).toMatchObject({ statusCode: 200, ok: true })

      const retried = await call('POST', `/webhooks/logs/${logged.id}/retry`)
      expect(retried.status).toBe(202)
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2)
      expect(receiver.received[1]!.json.id).toBe(delivery!.json.id)

      expect((await call('DELETE', `/webhooks/${subscription.id}`)).status).toBe(200)
      expect((await call('DELETE', `/webhooks/${subscription.id}`)).status).toBe(404)
    } finally {
      await receiver.close()
    }
  })

  it('enveloped 4xx for bad subscriptions, unknown deliveries and non-admin keys', async () => {
    const agentKey = (await call('POST', '/api-keys', { name: 'bot', role: 'agent' })).body.key
    const cases: Array<[string, string, unknown, number, string]> = [
      ['POST', '/webhooks/subscribe', { url: 'not a url', events: ['*'] }, 400, 'validation_failed'],
      ['POST', '/webhooks/subscribe', { url: 'https://example.com', events: [] }, 400, 'validation_failed'],
      [
        'POST',
        '/webhooks/subscribe',
        { url: 'https://example.com', events: ['tx_exploded'] },
        400,
        'validation_failed',
      ],
      [
        'POST',
        '/webhooks/subscribe',
        { url: 'https://example.com', events: ['*'], secret: 'mine' },
        400,
        'validation_failed',
      ],
      ['POST', '/webhooks/logs/whd_nope_1/retry', undefined, 404, 'not_found'],
      ['GET', '/webhooks/logs?limit=0', undefined, 400, 'validation_failed'],
    ]
    for (const [method, path, body, status, code] of cases) {
      const response = await call(method, path, body)
      expect(response.status, `${method} ${path}`).toBe(status)
      expect(response.body).toMatchObject({ success: false, error: { code } })
    }
    const forbidden = await call('GET', '/webhooks/list', undefined, agentKey)
    expect(forbidden.status).toBe(403)
    expect(forbidden.body.error.code).toBe('forbidden')
  })
})

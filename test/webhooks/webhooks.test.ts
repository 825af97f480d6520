import { type AgentWallet, type AuditLine, auditLines } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  approvalOf,
  freshAddress,
  fundedWallet,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'
import { startReceiver } from '../helpers/webhookReceiver.js'

let devnet: Devnet
let aw: AgentWallet

const fast = {
  allowPrivateTargets: ['127.0.0.0/8'],
  intervalMs: 20,
  backoffBaseMs: 20,
  backoffMaxMs: 100,
  timeoutMs: 2_000,
}

useDevnetAgentWallet((started) => ({ devnet, aw } = started), {
  webhooks: { ...fast, maxAttempts: 6, disableAfterDeadLetters: 3 },
})

describe('webhooks', () => {
  it('delivers tx_confirmed for a real send and hitl_requested for a paused one, signed per Standard Webhooks', async () => {
    const receiver = await startReceiver()
    try {
      const { subscription, secret } = await aw.subscribeWebhook({
        url: receiver.url,
        events: ['tx_confirmed', 'policy.hitl'],
      })
      expect(secret).toMatch(/^whsec_/)
      expect(JSON.stringify(await aw.listWebhooks())).not.toContain(secret.slice(6))
      expect(subscription.events).toEqual(['tx.confirmed', 'policy.hitl'])

      const wallet = await fundedWallet(aw, devnet, '5')
      await aw.updatePolicyRules({
        wallet: wallet.address,
        rules: [{ type: 'require_approval', above: '1' }],
      })
      const sent = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
      const payee = freshAddress()
      const paused = await aw.send({ wallet: wallet.address, to: payee, value: '2' })

      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2)
      const verifier = new Webhook(secret)
      for (const delivery of receiver.received) {
        expect(() => verifier.verify(delivery.body, delivery.headers as Record<string, string>)).not.toThrow()
        expect(delivery.headers['webhook-id']).toBe(delivery.json.id)
        expect(JSON.stringify(delivery.headers)).not.toContain(secret.slice(6))
      }
      const types = receiver.received.map((delivery) => delivery.json.type).sort()
      expect(types).toEqual(['hitl_requested', 'tx_confirmed'])
      const confirmed = receiver.received.find((delivery) => delivery.json.type === 'tx_confirmed')!
      expect(confirmed.json.data.transactionId).toBe(sent.transaction.id)
      const hitl = receiver.received.find((delivery) => delivery.json.type === 'hitl_requested')!
      expect(hitl.json.data.approvalId).toBe(approvalOf(paused).id)
      // It reads what the approver is asked to let happen, from the effects (issue #42).
      expect(hitl.json.data.headline).toBe(`Send 2 ETH to ${payee}`)

      // A tampered body fails the independent verifier.
      expect(() =>
        verifier.verify(
          confirmed.body.replace('tx_confirmed', 'tx_failed'),
          confirmed.headers as Record<string, string>,
        ),
      ).toThrow()
    } finally {
      await receiver.close()
    }
  })

  it('keeps every event for a receiver that is down for a while, and delivers them in order with stable ids', async () => {
    let down = true
    const attempts: string[] = []
    const receiver = await startReceiver((entry) => {
      attempts.push(entry.json.id)
      return down ? 503 : 200
    })
    try {
      await aw.subscribeWebhook({ url: receiver.url, events: ['*'] })
      const wallet = await fundedWallet(aw, devnet, '5')
      const sends = await Promise.all(
        [1, 2, 3].map(() => aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })),
      )
      await Promise.all(sends.map((sent) => aw.waitForTransaction({ transaction: sent.transaction.id })))
      await expect.poll(() => attempts.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3)
      down = false
      await expect
        .poll(() => receiver.received.filter((entry) => entry.json.type === 'tx_confirmed').length, {
          timeout: 10_000,
        })
        .toBe(3)
      const seqs = receiver.received.map((entry) => entry.json.seq)
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
      expect(new Set(seqs).size).toBe(seqs.length)
      // The first id refused while down is the one delivered first after recovery.
      expect(receiver.received[0]?.json.id).toBe(attempts[0])
      const { deliveries } = await aw.listWebhookDeliveries({ status: 'delivered', limit: 200 })
      const retried = deliveries.find((delivery) => delivery.eventId === attempts[0])!
      expect(retried.attempts.length).toBeGreaterThan(1)
      // The receiver is on a private address (allowed by CIDR): its reply is measured, never kept.
      expect(retried.attempts[0]).toMatchObject({ statusCode: 503, ok: false, responseBytes: 16 })
      expect(retried.attempts[0]?.responseExcerpt).toBeUndefined()
    } finally {
      await receiver.close()
    }
  })

  it('dead-letters a refused delivery, redelivers it on retry, and disables a subscription that keeps failing', async () => {
    let status = 400
    const receiver = await startReceiver(() => status)
    const disabled: string[] = []
    aw.bus.on('webhook.disabled', (event) => disabled.push(event.data.subscriptionId))
    try {
      const { subscription } = await aw.subscribeWebhook({ url: receiver.url, events: ['wallet.created'] })
      await aw.createWallet({ agentName: 'one' })
      await expect
        .poll(
          async () =>
            (await aw.listWebhookDeliveries({ subscriptionId: subscription.id })).deliveries[0]?.status,
          {
            timeout: 10_000,
          },
        )
        .toBe('dead')
      const [dead] = (await aw.listWebhookDeliveries({ subscriptionId: subscription.id })).deliveries
      expect(dead!.attempts).toHaveLength(1) // a 400 is not retried

      status = 200
      await aw.retryWebhookDelivery({ deliveryId: dead!.id })
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1)
      expect(receiver.received[0]?.json.id).toBe(dead!.eventId)

      status = 500
      for (const name of ['two', 'three', 'four']) await aw.createWallet({ agentName: name })
      await expect.poll(() => disabled, { timeout: 15_000 }).toContain(subscription.id)
      const [listed] = (await aw.listWebhooks()).subscriptions.filter((entry) => entry.id === subscription.id)
      expect(listed?.status).toBe('disabled')
      // The service's own change is in the audit trail, with its reason, as a key's would be.
      const changes: AuditLine[] = []
      for await (const line of auditLines(aw.context.storage, 'default'))
        if (line.kind === 'webhook.changed') changes.push(line)
      const ofThis = changes.filter(
        (line) => (line.payload as { subscriptionId: string }).subscriptionId === subscription.id,
      )
      expect(ofThis.map((line) => line.payload)).toEqual([
        expect.objectContaining({ change: 'subscribed' }),
        expect.objectContaining({
          change: 'disabled',
          by: 'service',
          reason: expect.stringMatching(/3 deliveries/),
        }),
      ])
    } finally {
      await receiver.close()
    }
  })

  it('retries a delivery waiting out its backoff now, keeping the subscription’s order', async () => {
    // A backoff of ten minutes: only a retry can bring an attempt within the test.
    const patient = await agentWalletOn(devnet, {
      webhooks: { ...fast, backoffBaseMs: 600_000, backoffMaxMs: 600_000 },
    })
    let down = true
    const seen: string[] = []
    const receiver = await startReceiver((entry) => {
      seen.push(entry.json.id)
      return down ? 503 : 200
    })
    try {
      const { subscription } = await patient.subscribeWebhook({
        url: receiver.url,
        events: ['wallet.created'],
      })
      await patient.createWallet({ agentName: 'first' })
      await patient.createWallet({ agentName: 'second' })
      const inOrder = async () =>
        (await patient.listWebhookDeliveries({ subscriptionId: subscription.id })).deliveries.sort(
          (a, b) => a.seq - b.seq,
        )
      await expect.poll(async () => (await inOrder())[0]?.attempts.length, { timeout: 10_000 }).toBe(1)
      const [head, later] = await inOrder()
      expect(head).toMatchObject({ status: 'pending' })
      expect(later).toMatchObject({ status: 'pending', attempts: [] })

      // The head itself, still refused: attempted now rather than in ten minutes.
      const retried = await patient.retryWebhookDelivery({ deliveryId: head!.id })
      expect(retried.delivery.id).toBe(head!.id)
      await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(2)
      expect((await inOrder())[0]).toMatchObject({
        status: 'pending',
        attempts: [{ ok: false }, { ok: false }],
      })

      // A later one: the head it waits behind goes first, then it.
      down = false
      expect((await patient.retryWebhookDelivery({ deliveryId: later!.id })).delivery.id).toBe(later!.id)
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2)
      expect(receiver.received.map((entry) => entry.json.id)).toEqual([head!.eventId, later!.eventId])
      expect((await inOrder()).map((delivery) => delivery.status)).toEqual(['delivered', 'delivered'])
    } finally {
      await receiver.close()
      await patient.close()
    }
  })

  it('refuses private and loopback targets unless the operator allows them', async () => {
    const strict = await agentWalletOn(devnet, { webhooks: { allowPrivateTargets: [] } })
    try {
      for (const url of [
        'http://127.0.0.1:9/x',
        'http://10.1.2.3/x',
        'http://[::1]/x',
        'http://localhost/x',
        'http://169.254.169.254/latest',
      ]) {
        await expect(strict.subscribeWebhook({ url, events: ['*'] })).rejects.toMatchObject({
          code: 'validation_failed',
        })
      }
      await expect(
        strict.subscribeWebhook({ url: 'ftp://example.com/x', events: ['*'] }),
      ).rejects.toMatchObject({
        code: 'validation_failed',
      })
      await expect(
        strict.subscribeWebhook({ url: 'https://example.com/x', events: ['nope'] }),
      ).rejects.toMatchObject({
        code: 'validation_failed',
      })
    } finally {
      await strict.close()
    }
  })

  it('lets only admins manage webhooks, and keeps tenants apart', async () => {
    const agent = aw.as({ tenantId: 'default', id: 'agent', role: 'agent' })
    await expect(agent.listWebhooks()).rejects.toMatchObject({ code: 'forbidden' })
    const other = aw.as({ tenantId: 'other', id: 'admin-2', role: 'admin' })
    expect((await other.listWebhooks()).subscriptions).toEqual([])
    const [mine] = (await aw.listWebhooks()).subscriptions
    await expect(other.deleteWebhook({ subscriptionId: mine!.id })).rejects.toMatchObject({
      code: 'not_found',
    })
  })
})

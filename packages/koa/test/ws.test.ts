import { EventBus } from '@agentwallet/core'
import { eventHub, wsCloseCodes } from '@agentwallet/koa'
import { parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startTestServer, type TestServer } from './helpers/testServer.js'

let t: TestServer
let otherTenantKey: string
const opened: WebSocket[] = []

type Message = { type: string; id?: string; seq?: number; timestamp?: string; data?: Record<string, unknown> }

/** Opens a socket and collects every message it receives. */
function connect(query = '', headers: Record<string, string> = {}) {
  const socket = new WebSocket(`${t.url.replace('http', 'ws')}/ws${query}`, { headers })
  opened.push(socket)
  const messages: Message[] = []
  const closed = new Promise<{ code: number }>((resolve) => socket.on('close', (code) => resolve({ code })))
  socket.on('message', (raw) => messages.push(JSON.parse(raw.toString())))
  const next = async (predicate: (m: Message) => boolean, timeoutMs = 5000): Promise<Message> => {
    const started = Date.now()
    while (Date.now() - started < timeoutMs) {
      const found = messages.find(predicate)
      if (found) return found
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    throw new Error(`no message matched; got ${JSON.stringify(messages.map((m) => m.type))}`)
  }
  return { socket, messages, closed, next, opened: new Promise((resolve) => socket.on('open', resolve)) }
}

beforeAll(async () => {
  t = await startTestServer({ heartbeatMs: 100, wsAuthTimeoutMs: 300 })
  otherTenantKey = (await t.call('POST', '/tenants', { body: { name: 'other' } })).body.key
})
afterAll(async () => {
  for (const socket of opened) socket.terminate()
  await t?.close()
})

describe('/ws', () => {
  it('authenticates by header, by ?apiKey= and by a first auth message', async () => {
    const byHeader = connect('', { 'x-api-key': t.adminKey })
    expect((await byHeader.next((m) => m.type === 'ready')) as unknown).toMatchObject({
      tenantId: 'default',
      role: 'admin',
    })
    const byQuery = connect(`?apiKey=${t.adminKey}`)
    await byQuery.next((m) => m.type === 'ready')
    const byMessage = connect()
    await byMessage.opened
    byMessage.socket.send(JSON.stringify({ type: 'auth', apiKey: t.adminKey }))
    await byMessage.next((m) => m.type === 'ready')
  })

  it('closes unauthenticated sockets with 4401 (bad key, or no auth message in time)', async () => {
    const bad = connect('?apiKey=aw_wrong')
    expect((await bad.closed).code).toBe(4401)
    const silent = connect()
    expect((await silent.closed).code).toBe(4401)
  })

  it('streams the tenant’s events in the envelope, with agent.activity heartbeats, and nothing to other tenants', async () => {
    const mine = connect('', { 'x-api-key': t.adminKey })
    const theirs = connect('', { 'x-api-key': otherTenantKey })
    await mine.next((m) => m.type === 'ready')
    await theirs.next((m) => m.type === 'ready')

    const heartbeat = await mine.next((m) => m.type === 'agent.activity')
    expect(heartbeat).toMatchObject({
      id: expect.any(String),
      seq: expect.any(Number),
      timestamp: expect.any(String),
      data: expect.any(Object),
    })

    const { wallet } = (await t.call('POST', '/wallet/create', { body: { agentName: 'ws' } })).body
    await t.devnet.faucet(wallet.address, parseEther('1'))
    const to = privateKeyToAccount(generatePrivateKey()).address
    const sent = await t.call('POST', `/wallet/${wallet.address}/send`, { body: { to, value: '0.1' } })
    const created = await mine.next((m) => m.type === 'wallet.created')
    expect(created).toMatchObject({
      id: expect.any(String),
      seq: expect.any(Number),
      timestamp: expect.any(String),
      data: { address: wallet.address },
    })
    const confirmed = await mine.next((m) => m.type === 'tx.confirmed')
    expect(confirmed.data).toMatchObject({ hash: sent.body.transaction.hash, status: 'confirmed' })
    expect(confirmed.seq!).toBeGreaterThan(created.seq!)

    await theirs.next((m) => m.type === 'agent.activity')
    expect(theirs.messages.filter((m) => m.type !== 'agent.activity' && m.type !== 'ready')).toEqual([])
  })

  it('sends policy.hitl for a paused send', async () => {
    const mine = connect('', { 'x-api-key': t.adminKey })
    await mine.next((m) => m.type === 'ready')
    const agentKey = (await t.call('POST', '/api-keys', { body: { name: 'a', role: 'agent' } })).body.key
    const { wallet } = (
      await t.call('POST', '/wallet/create', { key: agentKey, body: { agentName: 'hitl' } })
    ).body
    await t.devnet.faucet(wallet.address, parseEther('1'))
    await t.call('POST', '/policy/update', {
      body: { wallet: wallet.address, rules: [{ type: 'require_approval', always: true }] },
    })
    const paused = await t.call('POST', `/wallet/${wallet.address}/send`, {
      key: agentKey,
      body: { to: wallet.address, value: '0.01' },
    })
    expect(paused.status).toBe(202)
    const hitl = await mine.next((m) => m.type === 'policy.hitl')
    expect(hitl.data).toMatchObject({ approvalId: paused.body.approval.id })
  })

  it('closes a client that does not read (4408) without stalling the others', async () => {
    const bus = new EventBus()
    const hub = eventHub({ bus, heartbeatMs: 60_000, maxBufferedBytes: 1000 })
    const fakeSocket = (bufferedAmount: number) => {
      const sent: string[] = []
      const closes: number[] = []
      const socket = {
        OPEN: 1,
        readyState: 1,
        bufferedAmount,
        send: (m: string) => sent.push(m),
        close: (code: number) => closes.push(code),
        on: () => {},
      }
      return { socket, sent, closes }
    }
    const slow = fakeSocket(5000)
    const fast = fakeSocket(0)
    const principal = { tenantId: 'default', id: 'k', role: 'admin' as const }
    hub.add(slow.socket as never, principal)
    hub.add(fast.socket as never, principal)
    const event = {
      id: 'evt_1',
      type: 'agent.activity' as const,
      tenantId: 'default',
      seq: 1,
      timestamp: new Date().toISOString(),
      data: {},
    }
    bus.publish(event)
    bus.publish({ ...event, id: 'evt_2', seq: 2 })
    expect(slow.closes).toEqual([wsCloseCodes.slowConsumer])
    expect(slow.sent).toEqual([])
    expect(fast.sent.map((m) => JSON.parse(m).id)).toEqual(['evt_1', 'evt_2'])
    expect(hub.size).toBe(1)
    hub.close()
  })
})

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

/** `promise`, or a failure naming what was awaited after `timeoutMs`. */
function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)),
      timeoutMs,
    )
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

const newKey = async (role: 'agent' | 'approver' | 'admin', key = t.adminKey) => {
  const created = await t.call('POST', '/api-keys', { key, body: { name: `${role}-key`, role } })
  expect(created.status).toBe(201)
  return { id: created.body.apiKey.id as string, key: created.body.key as string }
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

  it('counts in a heartbeat only the receiving tenant’s sockets, and for an agent only its own', async () => {
    const tenant = (await t.call('POST', '/tenants', { body: { name: 'counted' } })).body.key as string
    const agent = await newKey('agent', tenant)
    connect('', { 'x-api-key': t.adminKey })
    const sockets = [
      connect('', { 'x-api-key': tenant }),
      connect('', { 'x-api-key': tenant }),
      connect('', { 'x-api-key': agent.key }),
    ]
    const beat = (m: Message) => Number(m.id!.slice('hb_'.length))
    const first = await Promise.all(sockets.map((s) => s.next((m) => m.type === 'agent.activity')))
    // A socket that got a heartbeat was registered by then: every later beat counts all three.
    const after = Math.max(...first.map(beat))
    const counts = await Promise.all(
      sockets.map(async (s) => {
        const later = await s.next((m) => m.type === 'agent.activity' && beat(m) > after)
        return later.data!.connectedClients
      }),
    )
    expect(counts).toEqual([3, 3, 1])
  })
})

describe('/ws and revoked keys', () => {
  it('closes every socket of a revoked key with 4401; it gets no further events, and only admins see key.revoked', async () => {
    const revoked = await newKey('admin')
    const approver = await newKey('approver')
    const agent = await newKey('agent')
    const doomed = [connect('', { 'x-api-key': revoked.key }), connect(`?apiKey=${revoked.key}`)]
    const admin = connect('', { 'x-api-key': t.adminKey })
    const others = [connect('', { 'x-api-key': approver.key }), connect('', { 'x-api-key': agent.key })]
    for (const socket of [...doomed, admin, ...others]) await socket.next((m) => m.type === 'ready')
    // Registered (a heartbeat reached it): the revocation must find the socket, not race its setup.
    for (const socket of doomed) await socket.next((m) => m.type === 'agent.activity')

    const answer = await t.call('DELETE', `/api-keys/${revoked.id}`)
    expect(answer.status).toBe(200)
    for (const socket of doomed) {
      const { code } = await within(socket.closed, 5_000, 'the revoked key’s socket to close')
      expect(code).toBe(wsCloseCodes.unauthorized)
    }
    const notice = await admin.next((m) => m.type === 'key.revoked')
    expect(notice.data).toMatchObject({ keyId: revoked.id, role: 'admin', revokedBy: expect.any(String) })

    const { wallet } = (await t.call('POST', '/wallet/create', { body: { agentName: 'after' } })).body
    await t.devnet.faucet(wallet.address, parseEther('1'))
    const to = privateKeyToAccount(generatePrivateKey()).address
    const sent = await t.call('POST', `/wallet/${wallet.address}/send`, { body: { to, value: '0.01' } })
    await admin.next((m) => m.type === 'tx.confirmed' && m.data?.hash === sent.body.transaction.hash)
    await others[0]!.next((m) => m.type === 'tx.confirmed' && m.data?.hash === sent.body.transaction.hash)
    for (const socket of doomed) expect(socket.messages.filter((m) => m.type.startsWith('tx.'))).toEqual([])
    for (const socket of others) expect(socket.messages.filter((m) => m.type === 'key.revoked')).toEqual([])
  })

  it('closes a socket whose key is revoked between its authentication and its registration', async () => {
    const raced = await newKey('admin')
    const authenticate = t.agentWallet.authenticate
    // The revocation commits (and key.revoked is published) after the key was checked, before the hub holds the socket.
    t.agentWallet.authenticate = async (rawKey) => {
      const principal = await authenticate(rawKey)
      if (principal.id === raced.id) await t.call('DELETE', `/api-keys/${raced.id}`)
      return principal
    }
    try {
      const socket = connect('', { 'x-api-key': raced.key })
      const { code } = await within(socket.closed, 5_000, 'the raced socket to close')
      expect(code).toBe(wsCloseCodes.unauthorized)
      expect(socket.messages.filter((m) => m.type !== 'ready')).toEqual([])
    } finally {
      t.agentWallet.authenticate = authenticate
    }
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startTestServer, type TestServer } from './helpers/testServer.js'

type Message = { type: string; id?: string; seq?: number; data?: Record<string, unknown> }

let t: TestServer
const sockets: WebSocket[] = []

function connect(query: string, key = t.adminKey) {
  const socket = new WebSocket(`${t.url.replace('http', 'ws')}/ws${query}`, { headers: { 'x-api-key': key } })
  sockets.push(socket)
  const messages: Message[] = []
  socket.on('message', (raw) => messages.push(JSON.parse(raw.toString())))
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)))
  return { socket, messages, closed }
}

const logged = (messages: Message[]) =>
  messages.filter((m) => m.seq !== undefined && m.type !== 'agent.activity')

beforeAll(async () => {
  t = await startTestServer({ heartbeatMs: 60_000 })
})
afterAll(async () => {
  for (const socket of sockets) socket.terminate()
  await t?.close()
})

describe('/ws for agent keys', () => {
  it("shows an agent only its own wallets' events; an admin sees the tenant's", async () => {
    const keyOf = async (name: string) =>
      (await t.call('POST', '/api-keys', { body: { name, role: 'agent' } })).body.key as string
    const [alice, bob] = [await keyOf('alice'), await keyOf('bob')]
    const asAlice = connect('', alice)
    const asBob = connect('', bob)
    const asAdmin = connect('')
    for (const socket of [asAlice, asBob, asAdmin]) {
      await expect.poll(() => socket.messages.some((m) => m.type === 'ready')).toBe(true)
    }
    await t.call('POST', '/wallet/create', { key: alice, body: { agentName: 'alice-wallet' } })
    await t.call('POST', '/wallet/create', { key: bob, body: { agentName: 'bob-wallet' } })
    const names = (messages: Message[]) => logged(messages).map((m) => m.data?.agentName)
    await expect.poll(() => names(asAdmin.messages)).toEqual(['alice-wallet', 'bob-wallet'])
    await expect.poll(() => names(asAlice.messages)).toEqual(['alice-wallet'])
    await expect.poll(() => names(asBob.messages)).toEqual(['bob-wallet'])
    // Replay applies the same rule.
    const replayed = connect(`?since=${logged(asAdmin.messages)[0]!.seq! - 1}`, bob)
    await expect.poll(() => names(replayed.messages)).toEqual(['bob-wallet'])
  })
})

describe('/ws?since=<seq>', () => {
  it('replays missed events from the log, then streams live ones, without gaps or duplicates', async () => {
    const first = connect('')
    await expect.poll(() => first.messages.some((m) => m.type === 'ready')).toBe(true)
    await t.call('POST', '/wallet/create', { body: { agentName: 'a' } })
    await expect.poll(() => logged(first.messages).length).toBe(1)
    const lastSeen = logged(first.messages)[0]!.seq!
    first.socket.close()

    // While disconnected, three more events happen.
    for (const name of ['b', 'c', 'd']) await t.call('POST', '/wallet/create', { body: { agentName: name } })

    const resumed = connect(`?since=${lastSeen}`)
    await expect.poll(() => logged(resumed.messages).length).toBe(3)
    await t.call('POST', '/wallet/create', { body: { agentName: 'e' } })
    await expect.poll(() => logged(resumed.messages).length).toBe(4)
    const seqs = logged(resumed.messages).map((m) => m.seq)
    expect(seqs).toEqual([lastSeen + 1, lastSeen + 2, lastSeen + 3, lastSeen + 4])
    expect(logged(resumed.messages).map((m) => m.data?.agentName)).toEqual(['b', 'c', 'd', 'e'])
  })

  it('replays nothing of another tenant', async () => {
    const other = (await t.call('POST', '/tenants', { body: { name: 'elsewhere' } })).body.key
    const socket = connect('?since=0', other)
    await expect.poll(() => socket.messages.some((m) => m.type === 'ready')).toBe(true)
    await t.call('POST', '/wallet/create', { body: { agentName: 'mine' } })
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(logged(socket.messages)).toEqual([])
  })

  it('closes with 4400 for a malformed since', async () => {
    const socket = connect('?since=-3')
    expect(await socket.closed).toBe(4400)
    expect(socket.messages[0]).toMatchObject({ type: 'error', error: { code: 'validation_failed' } })
  })
})

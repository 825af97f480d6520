import { createServer } from 'node:net'
import { createDevnet, type Devnet, type DevnetServer } from '@agentwallet/devnet'
import { type Address, type Hash, parseEther } from 'viem'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type FaultyRpcServer, faults, faultyRpcServer } from '../../../test/helpers/faultyChain.js'
import { loadConfig, parseCli } from '../src/cli/loadConfig.js'
import { serve } from '../src/cli/serve.js'

// `agentwallet serve --chain devnet=<down>,<proxy>`: the chain is one of several URLs, behind a proxy
// that can take the node away; a `--chain` URL is the only way a server meets a real node's faults.
const adminKey = 'aw_test_root_admin_key_0123456789abcdef'
let devnet: Devnet
let node: DevnetServer
let proxy: FaultyRpcServer
let server: { url: string; close(): Promise<void> }
let downUrl: string

beforeAll(async () => {
  devnet = await createDevnet()
  node = await devnet.serve({ port: 0 })
  proxy = await faultyRpcServer(node.url)
  downUrl = `http://127.0.0.1:${await closedPort()}`
  const argv = ['serve', '--storage', 'memory', '--port', '0', '--log-level', 'silent']
  argv.push('--chain', `devnet=${downUrl},${proxy.url}`)
  const env = { AGENTWALLET_ADMIN_KEY: adminKey }
  server = await serve(loadConfig(parseCli(argv).values, env), env, () => {})
})
afterAll(async () => {
  await server?.close()
  await proxy?.close()
  await node?.close()
  await devnet?.close()
})

type Answer = {
  ready?: boolean
  chains?: {
    name: string
    reachable: boolean
    rpcs?: { url: string; reachable: boolean; error?: string }[]
  }[]
  wallet?: { address: Address }
  transaction?: { id: string; hash?: Hash; status: string }
  error?: { code: string }
}

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-api-key': adminKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return {
    status: response.status,
    body: (await response.json()) as Answer,
    retryAfter: response.headers.get('retry-after'),
  }
}

/** `/health/ready` once its last report (reused for a second) has aged out. */
async function readyAfter(status: number) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const ready = await call('GET', '/health/ready')
    if (ready.status === status) return ready
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`/health/ready never answered ${status}`)
}

it('a chain with two URLs, the first down, still sends; /health/ready names both URLs', async () => {
  const created = await call('POST', '/wallet/create', { agentName: 'two-urls' })
  const address = created.body.wallet?.address as Address
  await devnet.faucet(address, parseEther('1'))
  const sent = await call('POST', `/wallet/${address}/send`, {
    to: devnet.accounts[1]?.address,
    value: '0.01',
  })
  expect(sent.status).toBe(200)
  const done = await call('GET', `/wallet/tx/${sent.body.transaction?.id}/wait`)
  expect(done.body.transaction?.status ?? (done.body as { status?: string }).status).toBe('confirmed')

  const ready = await call('GET', '/health/ready')
  expect(ready.status).toBe(200)
  const [chain] = ready.body.chains ?? []
  expect(chain).toMatchObject({ name: 'devnet', reachable: true })
  expect(chain?.rpcs).toEqual([
    expect.objectContaining({ url: downUrl, reachable: false, error: 'unreachable' }),
    expect.objectContaining({ url: proxy.url, reachable: true }),
  ])
})

it('the node gone: a send answers 503 chain_unavailable with Retry-After and /health/ready 503; back, 200', async () => {
  const created = await call('POST', '/wallet/create', { agentName: 'node-gone' })
  const address = created.body.wallet?.address as Address
  await devnet.faucet(address, parseEther('1'))
  proxy.setPlan([{ fault: faults.unavailable }])
  try {
    const sent = await call('POST', `/wallet/${address}/send`, {
      to: devnet.accounts[1]?.address,
      value: '0.01',
    })
    expect(sent).toMatchObject({
      status: 503,
      retryAfter: '2',
      body: { error: { code: 'chain_unavailable' } },
    })
    const down = await readyAfter(503)
    expect(down.body.chains?.[0]?.rpcs?.map((rpc) => rpc.reachable)).toEqual([false, false])
  } finally {
    proxy.setPlan([])
  }
  const back = await readyAfter(200)
  expect(back.body.chains?.[0]?.rpcs?.map((rpc) => rpc.reachable)).toEqual([false, true])
  const sent = await call('POST', `/wallet/${address}/send`, {
    to: devnet.accounts[1]?.address,
    value: '0.01',
  })
  expect(sent.status).toBe(200)
})

/** A TCP port on 127.0.0.1 nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

it('reads several URLs per chain from --chain and from AGENTWALLET_CHAINS', () => {
  const flag = loadConfig(
    parseCli([
      'serve',
      '--chain',
      'mainnet=https://a.example/v2/k,https://b.example',
      '--chain',
      'base=https://c.example',
    ]).values,
    {},
  )
  expect(flag.chains).toEqual({
    mainnet: ['https://a.example/v2/k', 'https://b.example'],
    base: ['https://c.example'],
  })
  const env = loadConfig(parseCli(['serve']).values, {
    AGENTWALLET_CHAINS: 'mainnet=https://a.example,https://b.example,base=https://c.example',
  })
  expect(env.chains).toEqual({
    mainnet: ['https://a.example', 'https://b.example'],
    base: ['https://c.example'],
  })
  expect(() => loadConfig(parseCli(['serve', '--chain', 'https://orphan.example']).values, {})).toThrow(
    /--chain expects name=rpcUrl/,
  )
})

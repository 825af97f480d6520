import { type AgentWalletClient, createClient } from '@agentwallet/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './helpers/testServer.js'

/** A path parameter that breaks the path unless the client URL-encodes it. */
const param = 'p/1 ?'
const address = '0x000000000000000000000000000000000000dEaD'
const idem = { idempotencyKey: 'idem-coverage' }

type Method = Exclude<keyof AgentWalletClient, 'request'>
/**
 * One call of every client method. The Record type makes a method without an entry a type error,
 * and the test below checks the same at run time.
 */
const calls: Record<Method, (client: AgentWalletClient) => Promise<unknown>> = {
  listWallets: (c) => c.listWallets(),
  createWallet: (c) => c.createWallet({ agentName: 'a' }, idem),
  importWallet: (c) => c.importWallet({ privateKey: `0x${'11'.repeat(32)}`, agentName: 'a' }, idem),
  getBalance: (c) => c.getBalance(param, { chain: 'devnet', tokens: ['USDC', 'DAI'] }),
  send: (c) => c.send(param, { to: address, value: '1' }, idem),
  getTransaction: (c) => c.getTransaction(param, { chain: 'devnet' }),
  listHistory: (c) => c.listHistory(param, { limit: 5, offset: 1 }),
  estimateGas: (c) => c.estimateGas({ from: address, to: address, value: '1' }),
  getPolicyRules: (c) => c.getPolicyRules({ wallet: address }),
  updatePolicyRules: (c) => c.updatePolicyRules({ rules: [] }),
  evaluatePolicy: (c) => c.evaluatePolicy({ from: address, to: address, value: '1' }),
  listApprovals: (c) => c.listApprovals({ status: 'pending', limit: 5 }),
  getApproval: (c) => c.getApproval(param),
  approve: (c) => c.approve(param, { reason: 'ok' }),
  reject: (c) => c.reject(param),
  createApiKey: (c) => c.createApiKey({ name: 'k', role: 'agent' }),
  listApiKeys: (c) => c.listApiKeys(),
  revokeApiKey: (c) => c.revokeApiKey(param),
  createTenant: (c) => c.createTenant({ name: 't' }),
  registerIdentity: (c) =>
    c.registerIdentity({ walletAddress: address, agentName: 'a', agentType: 'trading' }, idem),
  listIdentities: (c) => c.listIdentities(),
  getIdentityRegistration: (c) => c.getIdentityRegistration(param),
  identitiesOfWallet: (c) => c.identitiesOfWallet(param),
  getIdentity: (c) => c.getIdentity(param, { chain: 'devnet' }),
  listEnsNames: (c) => c.listEnsNames(),
  checkEnsName: (c) => c.checkEnsName(param, { chain: 'devnet', years: 2 }),
  registerEnsName: (c) => c.registerEnsName({ name: 'agent.eth' }, idem),
  getEnsRegistration: (c) => c.getEnsRegistration(param),
  reverseEnsName: (c) => c.reverseEnsName(param, { chain: 'devnet' }),
  resolveEnsName: (c) => c.resolveEnsName(param, { chain: 'devnet' }),
  swap: (c) => c.swap({ fromToken: 'ETH', toToken: 'USDC', amount: '1', slippageBps: 50 }, idem),
  getSwap: (c) => c.getSwap(param),
  quoteSwap: (c) => c.quoteSwap({ fromToken: 'ETH', toToken: 'USDC', amount: '1', chain: 'devnet' }),
  stake: (c) => c.stake({ protocol: 'lido', amount: '1' }, idem),
  getPrices: (c) => c.getPrices({ tokens: ['ETH', 'USDC'], chain: 'devnet' }),
  deploySafe: (c) => c.deploySafe({ owners: [address], threshold: 1 }, idem),
  proposeSafeTransaction: (c) =>
    c.proposeSafeTransaction(param, { from: address, to: address, value: '0' }, idem),
  confirmSafeTransaction: (c) =>
    c.confirmSafeTransaction(param, { safeTxHash: `0x${'ab'.repeat(32)}`, from: address }, idem),
  getSafe: (c) => c.getSafe(param, { chain: 'devnet' }),
  subscribeWebhook: (c) => c.subscribeWebhook({ url: 'https://example.com/hook', events: ['*'] }),
  listWebhooks: (c) => c.listWebhooks(),
  listWebhookDeliveries: (c) => c.listWebhookDeliveries({ status: 'dead', limit: 5 }),
  listWebhookHistory: (c) => c.listWebhookHistory({ subscriptionId: 'whk_1' }),
  retryWebhookDelivery: (c) => c.retryWebhookDelivery(param),
  deleteWebhook: (c) => c.deleteWebhook(param),
  health: (c) => c.health(),
  onboarding: (c) => c.onboarding(),
  openApi: (c) => c.openApi(),
}

type Recorded = { name: string; method: string; url: URL; headers: Record<string, string>; body: unknown }
type Parameter = { name: string; in: 'path' | 'query' | 'header' }
type Operation = {
  key: string
  method: string
  template: string
  parameters: Parameter[]
  requestBody?: { required: boolean }
}

/** Runs every client method against a fetch that records the request and answers a bare success. */
async function recordCalls(): Promise<Recorded[]> {
  const recorded: Recorded[] = []
  let current = ''
  const recordingFetch = (async (input: string | URL | Request, init?: RequestInit) => {
    recorded.push({
      name: current,
      method: init?.method ?? 'GET',
      url: new URL(String(input)),
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    })
    return new Response('{"success":true}', { status: 200, headers: { 'content-type': 'application/json' } })
  }) as typeof fetch
  const client = createClient({ baseUrl: 'http://recorder.test/', apiKey: 'k', fetch: recordingFetch })
  for (const [name, call] of Object.entries(calls)) {
    current = name
    await call(client)
  }
  return recorded
}

function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const { parameters = [], requestBody } = operation as Omit<Operation, 'key'>
      return { key: `${method.toUpperCase()} ${template}`, method, template, parameters, requestBody }
    }),
  )
}

/** The template a concrete path matches; literal segments win over parameters, as the router orders them. */
function matchTemplate(operations: Operation[], method: string, pathname: string): Operation | undefined {
  const segments = pathname.split('/')
  const candidates = operations.filter((operation) => {
    const parts = operation.template.split('/')
    return (
      operation.method === method.toLowerCase() &&
      parts.length === segments.length &&
      parts.every((part, index) => part.startsWith('{') || part === segments[index])
    )
  })
  const literals = (operation: Operation) => operation.template.split('/').filter((p) => !p.startsWith('{'))
  return candidates.sort((a, b) => literals(b).length - literals(a).length)[0]
}

let t: TestServer
let operations: Operation[]
let recorded: Recorded[]

beforeAll(async () => {
  t = await startTestServer()
  // The document comes from the running server, fetched by the client itself.
  const document = await createClient({ baseUrl: t.url, apiKey: t.adminKey }).openApi()
  operations = operationsOf(document as { paths: Record<string, Record<string, unknown>> })
  recorded = await recordCalls()
})
afterAll(async () => t?.close())

describe('@agentwallet/client covers the server', () => {
  it('has a call in the table for every method it exposes', () => {
    const client = createClient({ baseUrl: 'http://recorder.test', apiKey: 'k' })
    const methods = Object.keys(client).filter((name) => name !== 'request')
    expect(methods.sort()).toEqual(Object.keys(calls).sort())
  })

  it('calls every (method, path) of /openapi.json, and nothing the server does not serve', () => {
    expect(operations.length).toBeGreaterThan(40)
    const unknown = recorded
      .filter((call) => !matchTemplate(operations, call.method, call.url.pathname))
      .map((call) => `${call.name}: ${call.method} ${call.url.pathname}`)
    expect(unknown).toEqual([])
    const covered = new Set(
      recorded.map((call) => matchTemplate(operations, call.method, call.url.pathname)?.key),
    )
    const missing = operations.map((operation) => operation.key).filter((key) => !covered.has(key))
    expect(missing, 'endpoints without a client method').toEqual([])
  })

  it('encodes path parameters, sends only declared query parameters, bodies where declared, and idempotency keys where the server takes them', () => {
    for (const call of recorded) {
      const operation = matchTemplate(operations, call.method, call.url.pathname)!
      const where = `${call.name} → ${operation.key}`
      const parts = operation.template.split('/')
      const values = call.url.pathname
        .split('/')
        .filter((_, index) => parts[index]!.startsWith('{'))
        .map(decodeURIComponent)
      expect(values, where).toEqual(values.map(() => param))

      const declared = operation.parameters.filter((p) => p.in === 'query').map((p) => p.name)
      const sent = [...call.url.searchParams.keys()]
      expect(declared, where).toEqual(expect.arrayContaining(sent))

      if (operation.requestBody?.required) expect(call.body, where).toBeTypeOf('object')
      if (!operation.requestBody) expect(call.body, where).toBeUndefined()

      const idempotent = operation.parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key')
      expect(call.headers['idempotency-key'], where).toBe(idempotent ? idem.idempotencyKey : undefined)
    }
  })
})

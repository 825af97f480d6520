import { contractList } from '@agentwallet/core/contract'
import { buildOpenApi, createApp } from '@agentwallet/koa'
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './helpers/testServer.js'

let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(async () => t?.close())

it('/openapi.json is a valid OpenAPI 3.1 document generated from the request schemas', async () => {
  const { status, body } = await t.call('GET', '/openapi.json', { key: '' })
  expect(status).toBe(200)
  const result = await new Validator().validate(body)
  expect(result.errors ?? []).toEqual([])
  expect(result.valid).toBe(true)
  expect(body.openapi).toBe('3.1.0')
  const send = body.paths['/wallet/{wallet}/send'].post
  expect(send.requestBody.content['application/json'].schema.additionalProperties).toBe(false)
  expect(Object.keys(send.requestBody.content['application/json'].schema.properties)).toEqual(
    expect.arrayContaining(['to', 'value', 'chain', 'token', 'data']),
  )
  expect(send.responses['202']).toBeDefined()
  expect(body.paths['/wallet/{wallet}/history'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
    expect.arrayContaining(['wallet', 'limit', 'offset']),
  )
  for (const path of [
    '/wallet/list',
    '/wallet/create',
    '/wallet/import',
    '/wallet/tx/{transaction}',
    '/wallet/estimate-gas',
    '/policy/rules',
    '/policy/update',
    '/policy/approvals/{approvalId}/approve',
    '/api-keys',
    '/tenants',
    '/ens/list',
    '/ens/{name}',
    '/defi/swap',
    '/multisig/{safe}/propose',
    '/webhooks/logs',
    '/identity/{agentId}',
  ]) {
    expect(body.paths[path], path).toBeDefined()
  }
  expect(body.paths['/health'].get.security).toEqual([])
})

it("is the contract's document: built from the contract alone (no operation bound to core) it is the same", async () => {
  const { body } = await t.call('GET', '/openapi.json', { key: '' })
  const { routes } = createApp({ agentWallet: t.agentWallet })
  const fromContract = buildOpenApi({ operations: contractList, routes }, { version: body.info.version })
  expect(Object.keys(fromContract.paths as object)).toEqual(Object.keys(body.paths))
  expect(fromContract).toEqual(body)
})

it('/health and /onboarding answer without a key', async () => {
  const health = await t.call('GET', '/health', { key: '' })
  expect(health.body).toMatchObject({
    success: true,
    status: 'ok',
    chains: [{ name: 'devnet', chainId: 31337 }],
  })
  const onboarding = await t.call('GET', '/onboarding', { key: '' })
  expect(onboarding.body.success).toBe(true)
  expect(onboarding.body.steps.length).toBeGreaterThan(3)
  expect(JSON.stringify(onboarding.body)).not.toContain(t.adminKey)
})

it('echoes a sane x-request-id and makes one otherwise', async () => {
  const given = await t.call('GET', '/health', { key: '', headers: { 'x-request-id': 'trace-123' } })
  expect(given.headers.get('x-request-id')).toBe('trace-123')
  const made = await t.call('GET', '/health', { key: '', headers: { 'x-request-id': 'bad id with spaces' } })
  expect(made.headers.get('x-request-id')).toMatch(/^req_/)
})

it('rate-limits per key with Retry-After', async () => {
  const limited = await startTestServer({
    devnet: t.devnet,
    rateLimit: { capacity: 3, refillPerSecond: 0.5 },
  })
  try {
    const statuses = []
    for (let i = 0; i < 5; i++) statuses.push(await limited.call('GET', '/wallet/list'))
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 200, 429, 429])
    expect(statuses[3]!.body.error.code).toBe('rate_limited')
    expect(Number(statuses[3]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  } finally {
    await limited.close()
  }
})

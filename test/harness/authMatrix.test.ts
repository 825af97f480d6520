/**
 * The auth matrix (issue 9): every operation of the served OpenAPI document is called with no key, a
 * bad key, and a key of another tenant on the first tenant's real resources. Expected: 401 / 401 /
 * 404 envelopes, and no answer that tells tenant B anything about tenant A. A route the matrix
 * cannot classify fails with a message saying what to add. Which role may call what is the role
 * matrix's (roles.test.ts), generated from core's operation table.
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, describe, expect, it } from 'vitest'
import { startReceiver } from '../helpers/webhookReceiver.js'
import { type CallResult, startHarnessServer } from './harnessServer.js'
import { fillPath, type OpenApiRoute, openApiRoutes, routeName } from './openApiRoutes.js'
import { type Kind, kindOf, resourceValues } from './resourceParams.js'
import { type SampleRequest, sampleRequests } from './sampleRequests.js'
import { createTenantFixture, type TenantFixture } from './tenantFixture.js'

const h = await startHarnessServer()
const receiver = await startReceiver()
const f: TenantFixture = await createTenantFixture(h, receiver.url)
const document = (await h.call('GET', '/openapi.json')).body
const routes = openApiRoutes(document)
const usdc = h.devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
afterAll(async () => {
  await h.close()
  await receiver.close()
})

/** The only routes that may answer without a key (DESIGN §6). Adding one here is a security decision. */
const publicRoutes = new Set([
  'GET /health',
  'GET /health/live',
  'GET /health/ready',
  'GET /onboarding',
  'GET /openapi.json',
])
/**
 * Operator routes that take a bearer token of their own and never an API key, not even the root
 * admin's: a scraper holds nothing that moves money, and the counts span every tenant. Adding one
 * here is a security decision.
 */
const bearerRoutes = new Set(['GET /metrics'])
const resourceOf = resourceValues(f)

const samples = sampleRequests(f, { usdc, receiverUrl: receiver.url })
/** A valid request (body and query) per operation, naming tenant A's wallet wherever one is named. */
function validRequest(route: OpenApiRoute): SampleRequest | undefined {
  const sample = samples[routeName(route)]
  if (sample) return sample
  // Operations with nothing required need no sample.
  if (!route.bodyRequired && route.requiredQuery.length === 0) return {}
  return undefined
}

/** Another value of the same shape that names nothing: the answer to it is what "not found" looks like. */
function missingLike(value: string): string {
  if (/^0x[0-9a-fA-F]{40}$/.test(value)) return privateKeyToAccount(generatePrivateKey()).address
  if (/^0x[0-9a-fA-F]{64}$/.test(value)) return generatePrivateKey()
  if (/^\d+$/.test(value)) return String(987_654_321)
  const prefix = value.includes('_') ? value.slice(0, value.indexOf('_') + 1) : ''
  return prefix + 'f'.repeat(Math.max(1, value.length - prefix.length))
}

function url(route: OpenApiRoute, params: Record<string, string>, query?: string) {
  return fillPath(route.path, params) + (query ? `?${query}` : '')
}

function assertEnvelope(response: CallResult, status: number, code: string) {
  expect(response.contentType).toMatch(/application\/json/)
  expect(response.body, response.text.slice(0, 300)).toMatchObject({ success: false, error: { code } })
  expect(response.status).toBe(status)
}

/** No string of tenant A appears in the answer, except `allowed` (what the caller sent, or chain data). */
function assertNoLeak(response: CallResult, allowed: string[] = []) {
  const text = response.text.toLowerCase()
  const allowedLower = allowed.map((value) => value.toLowerCase())
  for (const secret of f.secrets) {
    if (allowedLower.includes(secret.toLowerCase())) continue
    expect(text, `the answer leaks ${secret}`).not.toContain(secret.toLowerCase())
  }
}

const normalize = (text: string, value: string) =>
  text.split(value).join('<value>').replaceAll(value.toLowerCase(), '<value>')

type Classified = {
  route: OpenApiRoute
  params: Array<{ name: string; kind: Kind }>
  request: SampleRequest | undefined
}

const problems: string[] = []
const classified: Classified[] = []
const bearerClassified: OpenApiRoute[] = []
for (const route of routes) {
  const name = routeName(route)
  if (route.isPublic) {
    if (!publicRoutes.has(name)) problems.push(`${name} is public (no key) but not in publicRoutes`)
    continue
  }
  if (publicRoutes.has(name)) problems.push(`${name} should be public but asks for a key`)
  if (route.security.includes('bearerToken')) {
    if (bearerRoutes.has(name)) bearerClassified.push(route)
    else problems.push(`${name} takes a bearer token but is not in bearerRoutes`)
    continue
  }
  if (bearerRoutes.has(name))
    problems.push(`${name} should take its own bearer token but asks for an API key`)
  if (!route.security.includes('apiKey'))
    problems.push(`${name} takes security schemes the matrix does not know: ${route.security.join(', ')}`)
  const params = route.pathParams.map((param) => ({ name: param, kind: kindOf(route, param) }))
  for (const { name: param, kind } of params) {
    if (!kind)
      problems.push(`${name}: path parameter {${param}} names no known resource; add it to paramKinds`)
  }
  const request = validRequest(route)
  if (!request && params.length > 0) {
    problems.push(`${name} needs a valid sample request in validRequest() for its tenant cases`)
  }
  classified.push({ route, params: params as Classified['params'], request })
}

const counts = { noKey: 0, badKey: 0, otherTenant: 0, public: 0, bearer: 0 }

it('classifies every operation of the OpenAPI document', () => {
  expect(routes.length).toBeGreaterThan(40)
  expect(problems, problems.join('\n')).toEqual([])
})

describe('public routes answer without a key', () => {
  for (const name of publicRoutes) {
    it(name, async () => {
      counts.public++
      const response = await h.call('GET', name.split(' ')[1]!)
      expect(response.status).toBe(200)
      expect(response.body.success ?? true).not.toBe(false)
      assertNoLeak(response)
    })
  }
})

describe.each(classified)('$route.method $route.path', ({ route, params, request }) => {
  const ownValues = Object.fromEntries(params.map(({ name, kind }) => [name, resourceOf[kind]]))
  const path = () => url(route, ownValues, request?.query)

  it('401 without a key and with a bad key, revealing nothing', async () => {
    for (const key of [undefined, 'aw_not_a_real_key_0000000000000000000000000']) {
      if (key) counts.badKey++
      else counts.noKey++
      const response = await h.call(route.method, path(), { key, body: request?.body })
      assertEnvelope(response, 401, 'unauthorized')
      assertNoLeak(response, Object.values(ownValues))
    }
  })

  const tenantParams = params.filter(({ kind }) => kind !== 'chainName' && kind !== 'chainAddress')
  const namesWallet = JSON.stringify(request ?? {}).includes(f.a.wallet)
  if (tenantParams.length > 0 || namesWallet) {
    it('404 for another tenant, identical to an unknown resource', async () => {
      counts.otherTenant++
      const key = f.keys.adminB
      const response = await h.call(route.method, path(), { key, body: request?.body })
      if (route.method === 'GET' && params.some(({ kind }) => kind === 'safe')) {
        // A Safe is a public contract: anyone may read its owners and threshold from chain, so the
        // read answers 200 — with none of tenant A's own records (proposals, names).
        expect(response.status).toBe(200)
        expect(response.body.safe).toMatchObject({ managed: false, pendingProposals: [] })
        assertNoLeak(response, [f.a.safe, f.a.wallet])
        return
      }
      assertEnvelope(response, 404, 'not_found')
      // The same request naming nothing of anyone's must answer the same, byte for byte.
      const swapped = [
        ...Object.values(ownValues).filter((value) => value !== f.a.ensName),
        ...(namesWallet ? [f.a.wallet] : []),
      ]
      const replacement = Object.fromEntries(swapped.map((value) => [value, missingLike(value)]))
      const swap = (text: string) =>
        swapped.reduce((acc, value) => acc.split(value).join(replacement[value]!), text)
      const missing = await h.call(route.method, swap(path()), {
        key,
        body: request?.body === undefined ? undefined : JSON.parse(swap(JSON.stringify(request.body))),
      })
      let own = response.text
      let other = missing.text
      for (const value of swapped) {
        own = normalize(own, value)
        other = normalize(other, replacement[value]!)
      }
      expect(missing.status).toBe(response.status)
      expect(own).toBe(other)
      assertNoLeak(response, swapped)
    })
  }

  if (route.method === 'GET' && params.length === 0) {
    it('tenant B lists none of tenant A’s records', async () => {
      counts.otherTenant++
      const response = await h.call('GET', url(route, {}, request?.query), { key: f.keys.adminB })
      expect(response.status, response.text.slice(0, 300)).toBeLessThan(500)
      assertNoLeak(response, request?.query?.includes(f.a.wallet) ? [f.a.wallet] : [])
    })
  }
})

describe.each(bearerClassified)('$method $path (its own bearer token)', (route) => {
  it('401 without the token, with a wrong one, and with every API key (header or bearer), revealing nothing', async () => {
    const keys = Object.values(f.keys)
    const attempts: Array<{ key?: string; headers?: Record<string, string> }> = [
      {},
      { headers: { authorization: 'Bearer not_the_metrics_token_000000000000' } },
      ...keys.map((key) => ({ key })),
      ...keys.map((key) => ({ headers: { authorization: `Bearer ${key}` } })),
    ]
    for (const attempt of attempts) {
      counts.bearer++
      const response = await h.call(route.method, route.path, attempt)
      assertEnvelope(response, 401, 'unauthorized')
      assertNoLeak(response)
    }
  })

  it('answers the token with aggregate counts only: nothing of tenant A', async () => {
    counts.bearer++
    const response = await h.call(route.method, route.path, {
      headers: { authorization: `Bearer ${h.metricsToken}` },
    })
    expect(response.status, response.text.slice(0, 300)).toBe(200)
    expect(response.text).toMatch(/^# HELP /)
    assertNoLeak(response)
  })
})

describe('agents of one tenant', () => {
  it('an agent cannot see the admin’s wallet of its own tenant (404)', async () => {
    const response = await h.call('GET', `/wallet/${f.a.wallet}/balance`, { key: f.keys.agentA })
    assertEnvelope(response, 404, 'not_found')
  })
})

it('served no 5xx and logged no errors', () => {
  expect(h.logs.join('')).not.toMatch(/"level":50/)
  console.info(`auth matrix: ${routes.length} operations; cases ${JSON.stringify(counts)}`)
})

/**
 * The malformed-input sweep (issue 9): for every operation of the served OpenAPI document, requests
 * generated from its parameters and body schema — bad path shapes, wrong types per field, missing
 * required fields, unknown fields, huge strings, bad amounts, arrays for objects, invalid JSON, wrong
 * media type, oversized bodies, bad query values — must each get an enveloped 4xx: no 5xx, no HTML,
 * no stack trace, and an answer within the per-request timeout.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { startReceiver } from '../helpers/webhookReceiver.js'
import { startHarnessServer } from './harnessServer.js'
import { fillPath, type JsonSchema, type OpenApiRoute, openApiRoutes, routeName } from './openApiRoutes.js'
import { kindOf, resourceValues } from './resourceParams.js'
import { sampleRequests } from './sampleRequests.js'
import { createTenantFixture } from './tenantFixture.js'

const bodyLimitBytes = 20_000
const h = await startHarnessServer({ bodyLimitBytes })
const receiver = await startReceiver()
const f = await createTenantFixture(h, receiver.url)
const routes = openApiRoutes((await h.call('GET', '/openapi.json')).body).filter((route) => !route.isPublic)
const usdc = h.devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
const samples = sampleRequests(f, { usdc, receiverUrl: receiver.url })
const resources = resourceValues(f)
afterAll(async () => {
  await h.close()
  await receiver.close()
})

type Case = {
  name: string
  path: string
  body?: unknown
  raw?: string
  headers?: Record<string, string>
}

const huge = 'x'.repeat(5_000)
const badPathValues = [
  'not-valid',
  '0x1234',
  `0x${'g'.repeat(40)}`,
  '-1',
  '1e18',
  huge,
  '%00',
  '..%2F..',
  "'%20OR%201=1",
  '💥',
]
const badAmounts: unknown[] = ['-1', 'NaN', 'Infinity', '1e18', '0x10', ' 1', '1.', '.5', '', 0.5, -1, 1e21]
const amountFields = new Set(['value', 'amount', 'max', 'above', 'minAmountOut'])

/** Values of another JSON type than the schema allows (null only when it is not nullable). */
function wrongTypes(schema: JsonSchema): unknown[] {
  const types = new Set(typesOf(schema))
  const candidates: Array<[string, unknown]> = [
    ['string', 'a string'],
    ['number', 12345],
    ['integer', 7],
    ['boolean', true],
    ['null', null],
    ['array', [1, 2]],
    ['object', { nested: { deep: [] } }],
  ]
  if (types.size === 0) return []
  return candidates
    .filter(([type]) => !types.has(type) && !(type === 'integer' && types.has('number')))
    .filter(([type]) => !(type === 'number' && types.has('integer')))
    .map(([, value]) => value)
}

function typesOf(schema: JsonSchema): string[] {
  if (schema.const !== undefined) return [typeof schema.const]
  if (schema.enum) return [...new Set(schema.enum.map((value) => (value === null ? 'null' : typeof value)))]
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives) {
    const nested = alternatives.map(typesOf)
    // `{}` (anything) in a union accepts every type: no wrong type exists.
    return nested.some((types) => types.length === 0) ? [] : nested.flat()
  }
  if (Array.isArray(schema.type)) return schema.type
  return schema.type ? [schema.type] : []
}

/** The properties of an object body schema (first object alternative of a union). */
function objectShape(schema: JsonSchema | undefined): {
  properties: Record<string, JsonSchema>
  required: string[]
} {
  if (!schema) return { properties: {}, required: [] }
  if (schema.properties) return { properties: schema.properties, required: schema.required ?? [] }
  for (const alternative of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    const shape = objectShape(alternative)
    if (Object.keys(shape.properties).length > 0) return shape
  }
  return { properties: {}, required: [] }
}

function casesFor(route: OpenApiRoute): Case[] {
  const sample = samples[routeName(route)] ?? {}
  const values: Record<string, string> = {}
  for (const param of route.pathParams) {
    const kind = kindOf(route, param)
    if (!kind)
      throw new Error(`${routeName(route)}: unknown path parameter {${param}}; add it to resourceParams.ts`)
    values[param] = resources[kind]
  }
  const path = fillPath(route.path, values)
  const query = sample.query ? `?${sample.query}` : ''
  const cases: Case[] = []

  for (const param of route.pathParams) {
    for (const bad of badPathValues) {
      const filled = route.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
        name === param
          ? bad.includes('%')
            ? bad
            : encodeURIComponent(bad)
          : encodeURIComponent(values[name]!),
      )
      cases.push({ name: `path {${param}} = ${bad.slice(0, 20)}`, path: filled + query, body: sample.body })
    }
  }

  cases.push({
    name: 'unknown query parameter',
    path: `${path}${query ? `${query}&` : '?'}zzUnknown=1`,
    body: sample.body,
  })
  for (const [name, schema] of Object.entries(route.query)) {
    const types = typesOf(schema)
    // A string parameter (or a list of strings) takes any text; only a number-typed one is malformed by these values.
    const textual =
      types.includes('string') || (types.includes('array') && typesOf(schema.items ?? {}).includes('string'))
    const bad = textual ? [] : ['-1', 'NaN', '1e999', 'null', '[object Object]', '%FF%FE', '1.5']
    if (typeof schema.maxLength === 'number') bad.push('x'.repeat(schema.maxLength + 1))
    for (const value of bad) {
      cases.push({
        name: `query ${name}=${value.slice(0, 12)}`,
        path: `${path}?${name}=${value}`,
        body: sample.body,
      })
    }
    if (!types.includes('array')) {
      cases.push({ name: `query ${name} repeated`, path: `${path}?${name}=1&${name}=2`, body: sample.body })
    }
  }

  if (route.method === 'GET') return cases.filter((c) => isMalformedForGet(c, route))

  const base = (sample.body ?? {}) as Record<string, unknown>
  const withBase = (name: string, body: unknown) => cases.push({ name, path: path + query, body })
  cases.push({ name: 'invalid JSON', path: path + query, raw: '{"a":' })
  cases.push({ name: 'truncated JSON string', path: path + query, raw: '"abc' })
  cases.push({
    name: 'wrong content-type',
    path: path + query,
    raw: 'a=1&b=2',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  cases.push({
    name: 'text/plain JSON',
    path: path + query,
    raw: JSON.stringify(base),
    headers: { 'content-type': 'text/plain' },
  })
  cases.push({
    name: 'oversized body',
    path: path + query,
    raw: JSON.stringify({ ...base, pad: 'x'.repeat(bodyLimitBytes * 2) }),
  })
  cases.push({
    name: 'deeply nested JSON',
    path: path + query,
    raw: `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
  })
  withBase('array body', [base])
  withBase('string body', 'hello')
  withBase('number body', 42)
  cases.push({ name: 'null body', path: path + query, raw: 'null' })
  withBase('unknown extra field', { ...base, zzUnknown: 1 })
  withBase(
    '__proto__ field',
    JSON.parse(`{"__proto__":{"polluted":true},${JSON.stringify(base).slice(1)}`.replace(',}', '}')),
  )

  const { properties, required } = objectShape(route.body)
  if (!route.body) withBase('body on an operation that takes none', { unexpected: true })
  for (const field of required) {
    const { [field]: _omitted, ...rest } = base
    withBase(`missing required ${field}`, rest)
  }
  for (const [field, schema] of Object.entries(properties)) {
    for (const value of wrongTypes(schema))
      withBase(`${field} as ${JSON.stringify(value)}`, { ...base, [field]: value })
    if (typesOf(schema).includes('string') && typeof schema.maxLength === 'number') {
      withBase(`${field} over maxLength`, { ...base, [field]: 'x'.repeat(schema.maxLength + 1) })
    }
    if (typesOf(schema).includes('array')) withBase(`${field} as object`, { ...base, [field]: { 0: 'a' } })
    if (amountFields.has(field)) {
      for (const amount of badAmounts)
        withBase(`${field} = ${JSON.stringify(amount)}`, { ...base, [field]: amount })
    }
  }
  // Nested: policy rules carry amounts too.
  if (properties.rules) {
    for (const amount of badAmounts) {
      withBase(`rules[0].max = ${JSON.stringify(amount)}`, {
        ...base,
        rules: [{ type: 'max_per_tx', asset: 'native', max: amount }],
      })
    }
    withBase('rules[0] as array', { ...base, rules: [[]] })
  }
  const idempotent =
    route.path !== '/tenants' &&
    ['/send', '/create', '/import', '/swap', '/stake', '/deploy', '/propose', '/confirm', '/register'].some(
      (end) => route.path.endsWith(end),
    )
  if (idempotent && sample.body) {
    for (const key of ['has space', 'x'.repeat(300), 'ünïcode']) {
      cases.push({
        name: `Idempotency-Key ${key.slice(0, 12)}`,
        path: path + query,
        body: { ...base, zzUnknown: true },
        headers: { 'idempotency-key': encodeURIComponent(key) },
      })
    }
  }
  return cases
}

/** A GET carries no body; every generated GET case is malformed in its path or query. */
function isMalformedForGet(c: Case, _route: OpenApiRoute): boolean {
  return c.name.startsWith('path') || c.name.startsWith('query') || c.name === 'unknown query parameter'
}

const plan = routes.map((route) => ({ route, cases: casesFor(route) }))
const total = plan.reduce((sum, { cases }) => sum + cases.length, 0)
const statuses = new Map<number, number>()

it('covers every protected operation of the document', () => {
  expect(plan.length).toBeGreaterThan(40)
  expect(total).toBeGreaterThan(1_000)
})

describe.each(plan)('$route.method $route.path', ({ route, cases }) => {
  it(`${cases.length} malformed requests → enveloped 4xx`, async () => {
    const failures: string[] = []
    const queue = [...cases]
    const worker = async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        try {
          const response = await h.call(route.method, c.path, {
            key: f.keys.adminA,
            body: c.body,
            raw: c.raw,
            // An operator route takes its own token: with it, the malformed input itself is judged.
            headers: route.security.includes('bearerToken')
              ? { authorization: `Bearer ${h.metricsToken}`, ...c.headers }
              : c.headers,
            timeoutMs: 10_000,
          })
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
          const problem =
            response.status < 400 || response.status >= 500
              ? `status ${response.status}`
              : !/application\/json/.test(response.contentType)
                ? `content-type ${response.contentType}`
                : response.body?.success !== false ||
                    typeof response.body?.error?.code !== 'string' ||
                    typeof response.body?.error?.message !== 'string'
                  ? 'not the error envelope'
                  : /<html|\n\s+at |\.ts:\d+/i.test(response.text)
                    ? 'HTML or a stack trace in the body'
                    : undefined
          if (problem) failures.push(`${c.name}: ${problem} — ${response.text.slice(0, 200)}`)
        } catch (error) {
          failures.push(`${c.name}: no answer (${(error as Error).name})`)
        }
      }
    }
    await Promise.all([worker(), worker(), worker()])
    expect(failures, failures.join('\n')).toEqual([])
  })
})

it('logged no 5xx and no stack', () => {
  expect(h.logs.join('')).not.toMatch(/"level":50/)
  console.info(
    `malformed sweep: ${plan.length} operations, ${total} requests; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
  )
})

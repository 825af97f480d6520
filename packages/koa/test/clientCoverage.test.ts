import { type AgentWalletClient, createClient, type OpenApiDocument } from '@agentwallet/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './helpers/testServer.js'

/*
 * Everything here is read from the served /openapi.json, not from core's table the client is built
 * from: a route the edge serves that the client cannot call, or a client method that sends what
 * its route does not describe, fails this file.
 */

/** A path parameter that breaks the path unless the client URL-encodes it. */
const param = 'p/1 ?'
const idem = { idempotencyKey: 'idem-coverage' }

/** The edge's own routes, each a helper of the client. */
const edgeHelpers: Record<string, keyof AgentWalletClient> = {
  'GET /health': 'health',
  'GET /onboarding': 'onboarding',
  'GET /openapi.json': 'openApi',
}
/** Routes the client does not wrap, and why. */
const notWrapped: Record<string, string> = {
  'GET /metrics': 'the operator’s Prometheus scrape: its own bearer token and text, never an API key',
  'GET /health/live': 'a balancer’s liveness probe, no I/O: health() reads the fuller report',
  'GET /health/ready': 'the same answer as GET /health, which health() reads',
  'GET /audit/export':
    'a stream of JSON lines for `agentwallet audit verify`, not JSON: listAudit() pages the same entries',
}

type JsonSchema = { type?: string | string[]; items?: JsonSchema; properties?: Record<string, JsonSchema> }
type Parameter = { name: string; in: 'path' | 'query' | 'header'; schema?: JsonSchema }
type DocOperation = {
  key: string
  method: string
  template: string
  operationId: string
  parameters: Parameter[]
  body: JsonSchema | undefined
  entry: Record<string, unknown>
}
type Recorded = { url: URL; method: string; headers: Record<string, string>; body: unknown }

function operationsOf(document: OpenApiDocument): DocOperation[] {
  return Object.entries(document.paths).flatMap(([template, methods]) =>
    Object.entries(methods ?? {}).map(([method, entry]) => {
      const {
        operationId,
        parameters = [],
        requestBody,
      } = entry as {
        operationId: string
        parameters?: Parameter[]
        requestBody?: { content: { 'application/json': { schema: JsonSchema } } }
      }
      const body = requestBody?.content['application/json'].schema
      const key = `${method.toUpperCase()} ${template}`
      return { key, method, template, operationId, parameters, body, entry }
    }),
  )
}

/** A value of a JSON Schema's type, as a caller would pass it. */
function sampleOf(schema: JsonSchema | undefined): unknown {
  const type = [schema?.type ?? 'string'].flat()[0]
  if (type === 'array') return [sampleOf(schema?.items), sampleOf(schema?.items)]
  if (type === 'integer' || type === 'number') return 5
  if (type === 'boolean') return true
  if (type === 'object') return { nested: 'value' }
  return 'text'
}

/** The input of an operation: every parameter and body field the document names, path ones odd on purpose. */
function inputOf(operation: DocOperation): Record<string, unknown> {
  const input: Record<string, unknown> = {}
  for (const parameter of operation.parameters) {
    if (parameter.in === 'path') input[parameter.name] = param
    if (parameter.in === 'query') input[parameter.name] = sampleOf(parameter.schema)
  }
  for (const [name, schema] of Object.entries(operation.body?.properties ?? {}))
    input[name] = sampleOf(schema)
  return input
}

/** A client whose fetch records each request and answers a success carrying one field. */
function recordingClient(): { client: AgentWalletClient; recorded: Recorded[] } {
  const recorded: Recorded[] = []
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    recorded.push({
      url: new URL(String(input)),
      method: init?.method ?? 'GET',
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body,
    })
    return Response.json({ success: true, answered: 'yes' })
  }) as typeof globalThis.fetch
  return { client: createClient({ baseUrl: 'http://recorder.test/', apiKey: 'k', fetch }), recorded }
}

/** Another entry of the document that is the same operation (a declared alias path): all but its id equal. */
function aliasTarget(operation: DocOperation, all: DocOperation[]): DocOperation | undefined {
  const { operationId: _id, ...entry } = operation.entry
  return all.find((other) => {
    if (other === operation || other.method !== operation.method) return false
    const { operationId: _otherId, ...otherEntry } = other.entry
    return JSON.stringify(otherEntry) === JSON.stringify(entry)
  })
}

let t: TestServer
let operations: DocOperation[]
/** The document's operations the client calls by their operationId. */
let declared: DocOperation[]

beforeAll(async () => {
  t = await startTestServer()
  // The document comes from the running server, fetched by the client itself.
  operations = operationsOf(await createClient({ baseUrl: t.url, apiKey: t.adminKey }).openApi())
  declared = operations.filter(
    (operation) => !(operation.key in edgeHelpers) && !(operation.key in notWrapped),
  )
})
afterAll(async () => t?.close())

describe('@agentwallet/client covers /openapi.json', () => {
  it('has a method named after the operationId of every operation the server serves (an alias path: its operation’s)', () => {
    const { client } = recordingClient()
    expect(declared.length).toBeGreaterThan(40)
    const missing = declared
      .filter((operation) => {
        const method = (client as unknown as Record<string, unknown>)[operation.operationId]
        if (typeof method === 'function') return false
        const target = aliasTarget(operation, operations)
        return (
          !target || typeof (client as unknown as Record<string, unknown>)[target.operationId] !== 'function'
        )
      })
      .map((operation) => `${operation.key} (${operation.operationId})`)
    expect(missing, 'operations without a client method').toEqual([])
    for (const [key, helper] of Object.entries(edgeHelpers)) {
      expect(operations.map((operation) => operation.key)).toContain(key)
      expect(client[helper]).toBeTypeOf('function')
    }
  })

  it('has no method the server does not serve', () => {
    const { client } = recordingClient()
    const served = new Set([...operations.map((operation) => operation.operationId), 'request'])
    const helpers = new Set<string>(Object.values(edgeHelpers))
    const unserved = Object.keys(client).filter((name) => !served.has(name) && !helpers.has(name))
    expect(unserved).toEqual([])
  })

  it('sends each operation as its entry describes: method, encoded path, query (lists comma-separated), body, key, idempotency key', async () => {
    const { client, recorded } = recordingClient()
    const methods = client as unknown as Record<
      string,
      (input: unknown, options: unknown) => Promise<unknown>
    >
    for (const operation of declared.filter((entry) => typeof methods[entry.operationId] === 'function')) {
      const input = inputOf(operation)
      const answer = await methods[operation.operationId]!(input, idem)
      const where = `${operation.operationId} → ${operation.key}`
      expect(answer, where).toEqual({ answered: 'yes' })
      const call = recorded.at(-1)!

      expect(call.method, where).toBe(operation.method.toUpperCase())
      expect(call.url.pathname, where).toBe(
        operation.template.replace(/\{[^}]+\}/g, () => encodeURIComponent(param)),
      )
      const query = operation.parameters.filter((parameter) => parameter.in === 'query')
      expect(Object.fromEntries(call.url.searchParams), where).toEqual(
        Object.fromEntries(query.map(({ name }) => [name, [input[name]].flat().join(',')])),
      )
      const bodyFields = Object.keys(operation.body?.properties ?? {})
      expect(call.body, where).toEqual(
        bodyFields.length > 0 ? Object.fromEntries(bodyFields.map((name) => [name, input[name]])) : undefined,
      )
      expect(call.headers['x-api-key'], where).toBe('k')
      const idempotent = operation.parameters.some(
        (parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key',
      )
      expect(call.headers['idempotency-key'], where).toBe(idempotent ? idem.idempotencyKey : undefined)
    }
  })

  it('serves its helpers from the edge’s own paths', async () => {
    const { client, recorded } = recordingClient()
    for (const [key, helper] of Object.entries(edgeHelpers)) {
      await (client[helper] as () => Promise<unknown>)()
      expect(`${recorded.at(-1)!.method} ${recorded.at(-1)!.url.pathname}`).toBe(key)
    }
  })
})

import {
  commonErrors,
  type OperationContract as OperationDeclaration,
  pathParametersOf,
} from '@agentwallet/core/contract'
import { z } from 'zod'
import { type HttpErrorCode, statusByCode } from '../http/statusByCode.js'
import type { RouteSpec } from '../routes/defineRoute.js'

export type OpenApiInfo = { title?: string | undefined; version: string }

type JsonSchema = Record<string, unknown>

/** Codes every keyed operation can answer over HTTP, beside the core codes it declares. */
const edgeErrors: HttpErrorCode[] = [
  'unauthorized',
  'rate_limited',
  'payload_too_large',
  'unsupported_media_type',
]

/**
 * The OpenAPI 3.1 document of the API, derived from the operation table (input and output zod
 * schemas, roles, declared errors by status) and the edge's own routes (health, onboarding, this
 * document, metrics). Zod 4's JSON Schema is draft 2020-12, which OpenAPI 3.1 uses as is.
 * @example const doc = buildOpenApi({ operations: operationList, routes }, { version: '0.1.0' })
 */
export function buildOpenApi(
  api: { operations: readonly OperationDeclaration[]; routes: readonly RouteSpec[] },
  info: OpenApiInfo,
): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {}
  const add = (path: string, method: string, entry: unknown) => {
    const key = path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
    paths[key] ??= {}
    paths[key][method] = entry
  }
  for (const route of api.routes) add(route.path, route.method, routeEntry(route))
  for (const operation of api.operations) {
    const { path, aliases = [] } = operation.http
    add(path, operation.http.method, operationEntry(operation, operation.name))
    for (const alias of aliases)
      add(alias, operation.http.method, operationEntry(operation, `${operation.name}At${pascal(alias)}`))
  }
  return {
    openapi: '3.1.0',
    info: {
      title: info.title ?? 'AgentWallet API',
      version: info.version,
      description:
        'Wallet infrastructure for AI agents. Every operation answers `{ success: true, … }`, or the error envelope `{ success: false, error: { code, message, details? } }` with the status of its code.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }],
    tags: tagsOf(api),
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        ...(api.routes.some((route) => route.auth === 'bearer')
          ? {
              bearerToken: {
                type: 'http',
                scheme: 'bearer',
                description:
                  'An operator token of its own (GET /metrics: AGENTWALLET_METRICS_TOKEN), never an API key.',
              },
            }
          : {}),
      },
    },
  }
}

function operationEntry(operation: OperationDeclaration, operationId: string): JsonSchema {
  const input = jsonSchema(operation.input, 'input')
  const properties = (input.properties as Record<string, JsonSchema> | undefined) ?? {}
  const required = new Set((input.required as string[] | undefined) ?? [])
  const inPath = pathParametersOf(operation.http.path)
  const parameters: unknown[] = inPath.map((name) => ({
    name,
    in: 'path',
    required: true,
    ...describedBy(properties[name]),
    schema: withoutDescription(properties[name] ?? { type: 'string' }),
  }))
  const rest = Object.entries(properties).filter(([name]) => !inPath.includes(name))
  let requestBody: JsonSchema | undefined
  if (operation.http.method === 'post') {
    if (rest.length > 0) {
      const body = {
        type: 'object',
        properties: Object.fromEntries(rest),
        required: rest.map(([name]) => name).filter((name) => required.has(name)),
        additionalProperties: false,
      }
      requestBody = {
        required: body.required.length > 0,
        content: { 'application/json': { schema: body } },
      }
    }
  } else {
    for (const [name, schema] of rest) {
      parameters.push({
        name,
        in: 'query',
        required: required.has(name),
        ...describedBy(schema),
        schema: withoutDescription(schema),
        ...(schema.type === 'array' ? { style: 'form', explode: false } : {}),
      })
    }
  }
  if (operation.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Replays with the same body answer the first call; another body under the key is a 409 idempotency_conflict.',
      schema: { type: 'string', maxLength: 200 },
    })
  }
  const output = jsonSchema(operation.output, 'output')
  const success = {
    description: 'Success',
    content: { 'application/json': { schema: withSuccess(output) } },
  }
  const responses: Record<string, unknown> = { [String(operation.http.status)]: success }
  if (operation.http.whenPaused) {
    responses[String(operation.http.whenPaused)] = {
      description: 'Paused for human approval: `status` is `pending_approval`, `approval` says which',
      content: success.content,
    }
  }
  Object.assign(responses, errorResponses([...commonErrors, ...operation.errors, ...edgeErrors]))
  const renamed = Object.entries(operation.http.renamedFields ?? {})
  return {
    operationId,
    summary: operation.summary,
    description: [
      operation.description,
      `Roles: ${operation.roles.join(', ')}.`,
      ...renamed.map(([old, name]) => `\`${old}\` is accepted as an older name of \`${name}\`.`),
    ].join('\n\n'),
    tags: [tagOf(operation.http.path)],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  }
}

function routeEntry(route: RouteSpec): JsonSchema {
  const parameters: unknown[] = pathParametersOf(route.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }))
  if (route.query) {
    const schema = jsonSchema(route.query, 'input')
    const required = new Set((schema.required as string[] | undefined) ?? [])
    for (const [name, property] of Object.entries((schema.properties as JsonSchema | undefined) ?? {})) {
      parameters.push({ name, in: 'query', required: required.has(name), schema: property })
    }
  }
  const status = String(route.status ?? 200)
  const content = route.produces
    ? { [route.produces]: { schema: { type: 'string' } } }
    : {
        'application/json': {
          schema: route.output ? withSuccess(jsonSchema(route.output, 'output')) : { type: 'object' },
        },
      }
  // Every route refuses input it does not take (400), keyed or not.
  const codes: HttpErrorCode[] = [
    'validation_failed',
    'internal',
    ...(route.auth === 'public' ? [] : edgeErrors),
  ]
  const responses: Record<string, unknown> = {
    [status]: { description: 'Success', content },
    ...errorResponses(codes),
  }
  if (route.errorAnswer) {
    const { code, output } = route.errorAnswer
    const fields = jsonSchema(output, 'output')
    const answer = envelope([code])
    responses[String(statusByCode[code])] = {
      description: `Error: ${code}, the answer's other fields beside it`,
      content: {
        'application/json': {
          schema: {
            ...answer,
            properties: { ...(fields.properties as JsonSchema), ...(answer.properties as JsonSchema) },
            required: [
              ...(answer.required as string[]),
              ...((fields.required as string[] | undefined) ?? []),
            ],
          },
        },
      },
    }
  }
  return {
    operationId: operationIdOf(route),
    summary: route.summary,
    description: route.summary,
    tags: [tagOf(route.path)],
    ...(route.auth === 'public' ? { security: [] } : {}),
    ...(route.auth === 'bearer' ? { security: [{ bearerToken: [] }] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: !route.body.safeParse(undefined).success,
            content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
          },
        }
      : {}),
    responses,
  }
}

/** One response per status the codes map to, its envelope naming exactly those codes. */
function errorResponses(codes: readonly HttpErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, Set<string>>()
  for (const code of codes) {
    const status = statusByCode[code]
    byStatus.set(status, (byStatus.get(status) ?? new Set()).add(code))
  }
  const responses: Record<string, unknown> = {}
  for (const [status, codesOfStatus] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `Error: ${[...codesOfStatus].join(', ')}`,
      content: { 'application/json': { schema: envelope([...codesOfStatus]) } },
    }
  }
  return responses
}

function envelope(codes: string[]): JsonSchema {
  return {
    type: 'object',
    required: ['success', 'error'],
    properties: {
      success: { const: false },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', enum: codes },
          message: { type: 'string' },
          details: { type: 'object' },
        },
      },
    },
  }
}

/** `{ success: true }` beside the operation's own fields (each variant of a union). */
function withSuccess(output: JsonSchema): JsonSchema {
  const variants = (output.oneOf ?? output.anyOf) as JsonSchema[] | undefined
  if (variants) return { oneOf: variants.map(withSuccess) }
  const properties = (output.properties as JsonSchema | undefined) ?? {}
  return {
    ...output,
    type: 'object',
    properties: { success: { type: 'boolean', const: true }, ...properties },
    required: ['success', ...((output.required as string[] | undefined) ?? [])],
  }
}

function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): JsonSchema {
  // Input: what a client sends (before transforms such as checksumming). Output: what it receives.
  // Refinements cannot be expressed; the server validates them itself.
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema
  return rest
}

function describedBy(schema: JsonSchema | undefined): { description?: string } {
  return typeof schema?.description === 'string' ? { description: schema.description } : {}
}

function withoutDescription(schema: JsonSchema): JsonSchema {
  const { description: _description, ...rest } = schema
  return rest
}

function tagOf(path: string): string {
  return path.split('/')[1] || 'root'
}

function tagsOf(api: { operations: readonly OperationDeclaration[]; routes: readonly RouteSpec[] }) {
  const names = new Set([
    ...api.routes.map((route) => tagOf(route.path)),
    ...api.operations.map((operation) => tagOf(operation.http.path)),
  ])
  return [...names].sort().map((name) => ({ name, description: tagDescriptions[name] ?? name }))
}

const tagDescriptions: Record<string, string> = {
  wallet: 'Wallets, balances, sends and transactions',
  policy: 'Policy rules, dry runs and human approvals',
  'api-keys': 'API keys of a tenant',
  tenants: 'Tenants (root admin)',
  webhooks: 'Webhook subscriptions and deliveries',
  identity: 'ERC-8004 agent identities',
  ens: 'ENS names',
  defi: 'Swaps, staking and prices',
  multisig: 'Safe multisig wallets',
  health: 'Liveness and readiness probes',
  onboarding: 'First steps',
  'openapi.json': 'This document',
  metrics: 'Prometheus metrics',
}

function pascal(path: string): string {
  return path
    .split(/[/:{}.-]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')
}

function operationIdOf(route: RouteSpec): string {
  const id = pascal(route.path)
  return route.method + id
}

import { errorCodes } from '@agentwallet/core'
import { z } from 'zod'
import { statusByCode } from '../http/statusByCode.js'
import type { RouteSpec } from '../routes/defineRoute.js'

export type OpenApiInfo = { title?: string | undefined; version: string }

/**
 * The OpenAPI 3.1 document of the routes, generated from the same zod schemas that validate requests
 * (zod 4's JSON Schema output is draft 2020-12, which OpenAPI 3.1 uses as is).
 * @example const doc = buildOpenApi(allRoutes, { version: '0.1.0' })
 */
export function buildOpenApi(routes: readonly RouteSpec[], info: OpenApiInfo): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
    paths[path] ??= {}
    paths[path][route.method] = operation(route)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: info.title ?? 'AgentWallet API',
      version: info.version,
      description: 'Wallet infrastructure for AI agents.',
    },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        ...(routes.some((route) => route.auth === 'bearer')
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
      schemas: {
        Error: {
          type: 'object',
          required: ['success', 'error'],
          properties: {
            success: { const: false },
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string', enum: [...new Set([...errorCodes, ...Object.keys(statusByCode)])] },
                message: { type: 'string' },
                details: { type: 'object' },
              },
            },
          },
        },
        Success: { type: 'object', required: ['success'], properties: { success: { const: true } } },
      },
    },
  }
}

function operation(route: RouteSpec): Record<string, unknown> {
  const parameters: unknown[] = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }))
  if (route.query) {
    const schema = jsonSchema(route.query)
    const required = new Set((schema.required as string[] | undefined) ?? [])
    for (const [name, property] of Object.entries(
      (schema.properties as Record<string, unknown> | undefined) ?? {},
    )) {
      parameters.push({ name, in: 'query', required: required.has(name), schema: property })
    }
  }
  if (route.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Replays with the same body return the first response; another body under the key is a 409.',
      schema: { type: 'string', maxLength: 200 },
    })
  }
  const status = String(route.status ?? 200)
  const responses: Record<string, unknown> = {
    [status]: {
      description: 'Success',
      content: route.produces
        ? { [route.produces]: { schema: { type: 'string' } } }
        : { 'application/json': { schema: { $ref: '#/components/schemas/Success' } } },
    },
    default: {
      description: 'Error envelope',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
  }
  if (route.path.endsWith('/send')) {
    responses['202'] = {
      description: 'Paused for human approval',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Success' } } },
    }
  }
  return {
    summary: route.summary,
    operationId: operationId(route),
    tags: [route.path.split('/')[1] ?? 'root'],
    ...(route.auth === 'public' ? { security: [] } : {}),
    ...(route.auth === 'bearer' ? { security: [{ bearerToken: [] }] } : {}),
    ...(route.roles ? { description: `Roles: ${route.roles}.` } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: !route.body.safeParse(undefined).success,
            content: { 'application/json': { schema: jsonSchema(route.body) } },
          },
        }
      : {}),
    responses,
  }
}

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  // Input side: what a client sends (before transforms such as checksumming); refinements cannot be
  // expressed and are left to the server's own validation.
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>
  return rest
}

function operationId(route: RouteSpec): string {
  const words = route.path.split(/[/:{}-]+/).filter(Boolean)
  return [route.method, ...words]
    .map((word, index) => (index === 0 ? word : word[0]!.toUpperCase() + word.slice(1)))
    .join('')
}

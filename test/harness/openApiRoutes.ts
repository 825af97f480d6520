/** One operation of the served OpenAPI document, as the harness tests walk it. */
export type OpenApiRoute = {
  method: string
  /** OpenAPI form: `/wallet/{address}/send`. */
  path: string
  isPublic: boolean
  /** The security schemes it takes (`apiKey`, or `bearerToken` for an operator route such as /metrics). */
  security: string[]
  pathParams: string[]
  query: Record<string, JsonSchema>
  requiredQuery: string[]
  body: JsonSchema | undefined
  bodyRequired: boolean
}

export type JsonSchema = {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  enum?: unknown[]
  const?: unknown
  items?: JsonSchema
  pattern?: string
  format?: string
  minimum?: number
  maximum?: number
  maxLength?: number
  additionalProperties?: unknown
  [key: string]: unknown
}

type Operation = {
  security?: unknown[]
  description?: string
  parameters?: Array<{ name: string; in: string; required?: boolean; schema: JsonSchema }>
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> }
}

/** Every operation of the document, so a new route is covered by the harness without editing it. */
export function openApiRoutes(document: {
  paths: Record<string, Record<string, Operation>>
  security?: unknown[]
}): OpenApiRoute[] {
  const routes: OpenApiRoute[] = []
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const parameters = operation.parameters ?? []
      const query = parameters.filter((parameter) => parameter.in === 'query')
      routes.push({
        method: method.toUpperCase(),
        path,
        isPublic: Array.isArray(operation.security) && operation.security.length === 0,
        security: (operation.security ?? document.security ?? []).flatMap((requirement) =>
          Object.keys(requirement as object),
        ),
        pathParams: parameters
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => parameter.name),
        query: Object.fromEntries(query.map((parameter) => [parameter.name, parameter.schema])),
        requiredQuery: query.filter((parameter) => parameter.required).map((parameter) => parameter.name),
        body: operation.requestBody?.content['application/json']?.schema,
        bodyRequired: operation.requestBody?.required ?? false,
      })
    }
  }
  return routes
}

/** `/wallet/{address}/send` with the values filled in. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = values[name]
    if (value === undefined) throw new Error(`no value for path parameter {${name}} of ${path}`)
    return encodeURIComponent(value)
  })
}

export const routeName = (route: Pick<OpenApiRoute, 'method' | 'path'>) => `${route.method} ${route.path}`

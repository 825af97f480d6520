import { type OperationDeclaration, pathParametersOf, ValidationError } from '@agentwallet/core'
import { z } from 'zod'

/** How one query field turns from text into the type its schema wants. */
type QueryKind = 'number' | 'boolean' | 'array' | 'string'

/** What a route needs to assemble an operation's input from a request. */
export type RequestInputReader = (request: {
  params: Record<string, string>
  query: Record<string, string | string[] | undefined>
  body: unknown
}) => Record<string, unknown>

/**
 * Builds the reader of an operation's input: its path parameters, plus the query string (GET,
 * DELETE) or the JSON body (POST), with declared renamed fields moved to their names. Query text
 * becomes numbers, booleans and comma-separated lists where the input schema says so; the
 * operation's own schema validates the result.
 * @example const read = requestInput(operations.getBalance); read({ params, query, body })
 */
export function requestInput(operation: OperationDeclaration): RequestInputReader {
  const pathNames = pathParametersOf(operation.http.path)
  const fromQuery = operation.http.method !== 'post'
  const kinds = fromQuery ? queryKinds(operation.input) : {}
  const renamed = Object.entries(operation.http.renamedFields ?? {})
  return ({ params, query, body }) => {
    // Strict on both sides: what an operation does not read is refused, never silently ignored.
    if (fromQuery && body !== undefined) throw unexpected('request body')
    if (!fromQuery && Object.keys(query).length > 0) throw unexpected('query parameters')
    const fields = fromQuery ? fromQueryString(query, kinds) : fromBody(body)
    for (const [old, name] of renamed) {
      if (old in fields && !(name in fields)) {
        fields[name] = fields[old]
        delete fields[old]
      }
    }
    for (const name of pathNames) {
      if (name in fields) throw inPath(name)
      fields[name] = params[name]
    }
    return fields
  }
}

function fromBody(body: unknown): Record<string, unknown> {
  if (body === undefined) return {}
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ValidationError('The request body must be a JSON object')
  return { ...(body as Record<string, unknown>) }
}

function fromQueryString(
  query: Record<string, string | string[] | undefined>,
  kinds: Record<string, QueryKind>,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {}
  for (const [name, raw] of Object.entries(query)) {
    if (raw === undefined) continue
    const kind = kinds[name] ?? 'string'
    if (kind === 'array') {
      fields[name] = (Array.isArray(raw) ? raw : [raw]).flatMap((part) => part.split(',')).filter(Boolean)
      continue
    }
    // A repeated scalar is left as a list, so the schema refuses it rather than one copy winning.
    if (Array.isArray(raw)) fields[name] = raw
    else if (kind === 'number') fields[name] = /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw
    else if (kind === 'boolean') fields[name] = raw === 'true' ? true : raw === 'false' ? false : raw
    else fields[name] = raw
  }
  return fields
}

/** The query-string kind of each input field, read from the input's JSON Schema. */
function queryKinds(input: z.core.$ZodType): Record<string, QueryKind> {
  const schema = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, { type?: string | string[] }>
  }
  const kinds: Record<string, QueryKind> = {}
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const types = [property.type ?? []].flat()
    kinds[name] = types.includes('array')
      ? 'array'
      : types.includes('integer') || types.includes('number')
        ? 'number'
        : types.includes('boolean')
          ? 'boolean'
          : 'string'
  }
  return kinds
}

function unexpected(what: string): ValidationError {
  return new ValidationError(`This endpoint takes no ${what}`)
}

function inPath(name: string): ValidationError {
  const message = `"${name}" is given in the path; do not repeat it in the request`
  return new ValidationError(message, { details: { issues: [{ path: name, message }] } })
}

import { type OperationContract, pathParametersOf } from '@agentwallet/core/contract'
import { type AgentWalletHttpError, toHttpError } from './agentWalletHttpError.js'

/** A query value as the server reads it: text, a number or boolean as text, a list comma-separated. */
export type QueryValue = string | number | boolean | readonly (string | number)[] | null | undefined

/** One HTTP request, before the base URL, key and headers are added. */
export type HttpRequest = {
  method: string
  path: string
  query?: Readonly<Record<string, QueryValue>> | undefined
  body?: unknown
}

/**
 * The request of an operation called with `input`, as the edge reads it back: path parameters
 * (URL-encoded) from the path, the other fields in the query string (GET, DELETE) or the JSON body (POST).
 * @example toHttpRequest(operations.getBalance, { wallet, tokens: ['USDC'] }) // GET /wallet/0x…/balance?tokens=USDC
 */
export function toHttpRequest(operation: OperationContract, input: unknown): HttpRequest {
  const fields: Record<string, unknown> = { ...(input as Record<string, unknown> | undefined) }
  const { method, path: template } = operation.http
  let path = template
  for (const name of pathParametersOf(template)) {
    const value = fields[name]
    delete fields[name]
    if ((typeof value !== 'string' && typeof value !== 'number') || value === '')
      throw missing(operation, name)
    path = path.replace(`:${name}`, encodeURIComponent(value))
  }
  const defined = Object.entries(fields).filter(([, value]) => value !== undefined)
  if (method !== 'post')
    return { method, path, query: Object.fromEntries(defined) as Record<string, QueryValue> }
  return { method, path, body: defined.length > 0 ? Object.fromEntries(defined) : undefined }
}

/**
 * A search string the edge parses back: lists comma-separated (an empty list is sent empty, so the
 * server judges it), numbers and booleans as text, `undefined` and `null` left out.
 * @example toSearch({ tokens: ['ETH', 'USDC'], limit: 5 }) // 'tokens=ETH%2CUSDC&limit=5'
 */
export function toSearch(query: Readonly<Record<string, QueryValue>> = {}): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue
    search.set(name, Array.isArray(value) ? value.join(',') : String(value))
  }
  return search.toString()
}

// The server would answer a route the caller did not mean (`/wallet//balance` is no route at all).
function missing(operation: OperationContract, name: string): AgentWalletHttpError {
  const message = `${operation.name} needs "${name}" (a path parameter): nothing was sent`
  return toHttpError({
    code: 'validation_failed',
    message,
    status: 0,
    details: { issues: [{ path: name, message }] },
  })
}

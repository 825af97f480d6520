import { type AgentWalletHttpError, toHttpError } from './agentWalletHttpError.js'
import { type HttpRequest, toSearch } from './toHttpRequest.js'

/** Where and how requests go. */
export type Transport = { baseUrl: string; apiKey: string; fetch: typeof fetch; timeoutMs: number }

/** A success (2xx) and its JSON body, or its text when it is not JSON. */
export type Answer = { status: number; body: unknown; requestId: string | undefined }

type Envelope = { success: boolean; error?: { code?: unknown; message?: unknown; details?: unknown } }

/**
 * Sends one request with the API key (and the idempotency key when given) and answers a success;
 * everything else throws `AgentWalletHttpError`: the envelope's code for an error the server
 * answered, `http_error` for a failure that is not our envelope (a proxy's 502 page), `timeout`
 * and `network_error` when no answer came.
 * @example const { body } = await fetchAnswer(transport, { method: 'get', path: '/health' })
 */
export async function fetchAnswer(
  transport: Transport,
  request: HttpRequest & { idempotencyKey?: string | undefined },
): Promise<Answer> {
  const search = toSearch(request.query)
  const url = `${transport.baseUrl}${request.path}${search ? `?${search}` : ''}`
  const headers: Record<string, string> = { 'x-api-key': transport.apiKey, accept: 'application/json' }
  if (request.body !== undefined) headers['content-type'] = 'application/json'
  if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey
  let response: Response
  let text: string
  try {
    response = await transport.fetch(url, {
      method: request.method.toUpperCase(),
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(transport.timeoutMs),
    })
    text = await response.text()
  } catch (error) {
    throw unanswered(error, transport)
  }
  const requestId = response.headers.get('x-request-id') ?? undefined
  const body = parseJson(text)
  const envelope = isEnvelope(body) ? body : undefined
  if (response.ok && envelope?.success !== false) return { status: response.status, body, requestId }
  const error = envelope?.error
  throw toHttpError({
    code: typeof error?.code === 'string' ? error.code : 'http_error',
    message: typeof error?.message === 'string' ? error.message : `HTTP ${response.status}`,
    status: response.status,
    details: isRecord(error?.details) ? error.details : undefined,
    requestId,
  })
}

/**
 * The fields of an operation's answer: the envelope without `success`.
 * @example const { wallet } = fieldsOf(await fetchAnswer(transport, request))
 */
export function fieldsOf(answer: Answer): Record<string, unknown> {
  if (!isEnvelope(answer.body) || answer.body.success !== true) {
    throw toHttpError({
      code: 'http_error',
      message: `HTTP ${answer.status} answered a body that is not an AgentWallet envelope`,
      status: answer.status,
      requestId: answer.requestId,
    })
  }
  const { success: _success, ...fields } = answer.body
  return fields
}

function unanswered(error: unknown, transport: Transport): AgentWalletHttpError {
  const timedOut = error instanceof Error && error.name === 'TimeoutError'
  // The origin only: a base URL may carry credentials, and the key is never part of a URL.
  const origin = new URL(transport.baseUrl).origin
  return toHttpError({
    code: timedOut ? 'timeout' : 'network_error',
    message: timedOut
      ? `${origin} did not answer within ${transport.timeoutMs} ms`
      : `${origin} could not be reached`,
    status: 0,
    cause: error,
  })
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isEnvelope(value: unknown): value is Envelope {
  return isRecord(value) && typeof value.success === 'boolean'
}

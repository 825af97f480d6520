import { type CallOptions, contractList, type OperationContract } from '@agentwallet/core/contract'
import { toHttpError } from './agentWalletHttpError.js'
import type { HealthAnswer, OnboardingAnswer, OpenApiDocument } from './edgeAnswers.js'
import { type Answer, fetchAnswer, fieldsOf, type Transport } from './fetchAnswer.js'
import type { OperationMethods } from './operationMethods.js'
import { type QueryValue, toHttpRequest } from './toHttpRequest.js'

export type ClientOptions = {
  /** The server's base URL, e.g. `http://127.0.0.1:8080` (a path prefix is kept). */
  baseUrl: string
  /** Sent as `X-API-Key`. */
  apiKey: string
  /** Default: the global fetch. */
  fetch?: typeof fetch | undefined
  /** Per-request timeout in ms (default 30 s); past it the call fails with `timeout`. */
  timeoutMs?: number | undefined
  /**
   * Parse every operation's answer with its declared output schema (`invalid_response` when it
   * does not fit). Off by default: the server already answers only what the schema declares.
   */
  validate?: boolean | undefined
}

/** What `request` takes beside the method and path. */
export type RequestOptions = {
  /** Sent as JSON. */
  body?: unknown
  query?: Readonly<Record<string, QueryValue>> | undefined
  idempotencyKey?: string | undefined
}

/** The edge's own routes, and any path by hand. */
export type EdgeMethods = {
  /** `GET /health` (no key needed). */
  health(): Promise<HealthAnswer>
  /** `GET /onboarding`: chains, roles and first steps. */
  onboarding(): Promise<OnboardingAnswer>
  /** `GET /openapi.json`: the served OpenAPI 3.1 document, as it is. */
  openApi(): Promise<OpenApiDocument>
  /**
   * Any path with the same key, errors and envelope handling: answers the body without `success`
   * (a body that is not an envelope, as it is).
   */
  request<T = Record<string, unknown>>(method: string, path: string, options?: RequestOptions): Promise<T>
}

/** One method per operation of the contract, typed as the in-process session's, plus the edge's routes. */
export type AgentWalletClient = OperationMethods & EdgeMethods

/**
 * A typed client for the AgentWallet HTTP API, derived from core's operation table: each operation
 * is a method taking its input (path parameters included) and `{ idempotencyKey }`, answering its
 * declared output (the JSON body without `success`). A 202 paused for approval is a result
 * (`status: 'pending_approval'`, `approval`); every failure throws an error of core's
 * family (`NotFoundError` for `not_found`, …; `AgentWalletHttpError` matches them all) with its `status`.
 * @example
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8080', apiKey })
 * const { wallet } = await client.createWallet({ agentName: 'trader' }, { idempotencyKey: 'create-trader' })
 * const sent = await client.send({ wallet: wallet.address, to, value: '0.01' }, { idempotencyKey: 'pay-1' })
 */
export function createClient(options: ClientOptions): AgentWalletClient {
  const transport: Transport = {
    // Parsing fails here, at once, on a base URL fetch could never reach.
    baseUrl: new URL(options.baseUrl).href.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    // The global is looked up at each call, so one installed later (a polyfill, a test's) is used.
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    timeoutMs: options.timeoutMs ?? 30_000,
  }
  const methods: Record<string, unknown> = {}
  for (const operation of contractList as readonly OperationContract[])
    methods[operation.name] = operationMethod(transport, operation, options.validate === true)
  const edge: EdgeMethods = {
    health: async () =>
      fieldsOf(await fetchAnswer(transport, { method: 'get', path: '/health' })) as HealthAnswer,
    onboarding: async () =>
      fieldsOf(await fetchAnswer(transport, { method: 'get', path: '/onboarding' })) as OnboardingAnswer,
    openApi: async () =>
      (await fetchAnswer(transport, { method: 'get', path: '/openapi.json' })).body as OpenApiDocument,
    request: async <T>(
      method: string,
      path: string,
      { body, query, idempotencyKey }: RequestOptions = {},
    ) => {
      const answer = await fetchAnswer(transport, { method, path, query, body, idempotencyKey })
      const enveloped = (answer.body as { success?: unknown } | null)?.success === true
      return (enveloped ? fieldsOf(answer) : answer.body) as T
    },
  }
  // Built from the list at run time, typed from the same list: the cast joins the two.
  return { ...(methods as OperationMethods), ...edge }
}

function operationMethod(transport: Transport, operation: OperationContract, validate: boolean) {
  return async (input?: unknown, { idempotencyKey }: CallOptions = {}) => {
    const request = toHttpRequest(operation, input)
    const answer = await fetchAnswer(transport, {
      ...request,
      idempotencyKey: operation.idempotent ? idempotencyKey : undefined,
    })
    const fields = fieldsOf(answer)
    return validate ? validated(operation, fields, answer) : fields
  }
}

function validated(operation: OperationContract, fields: Record<string, unknown>, answer: Answer) {
  const result = operation.output.safeParse(fields)
  if (result.success) return result.data
  throw toHttpError({
    code: 'invalid_response',
    message: `${operation.name} answered outside its declared output`,
    status: answer.status,
    details: { operation: operation.name, issues: result.error.issues.slice(0, 5) },
    requestId: answer.requestId,
  })
}

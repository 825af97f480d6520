import { AgentWalletHttpError } from './agentWalletHttpError.js'
import type * as T from './types.js'

export type ClientOptions = {
  /** The server's base URL, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string
  apiKey: string
  /** Default: the global fetch. */
  fetch?: typeof fetch | undefined
  /** Per-request timeout in ms (default 30 s). */
  timeoutMs?: number | undefined
}

type RequestOptions = {
  body?: unknown
  query?: Record<string, string | number | undefined>
  idempotencyKey?: string | undefined
}

/**
 * A typed client for the AgentWallet HTTP API: one method per endpoint, the server's envelopes as
 * return types, and every error response thrown as an `AgentWalletHttpError` with `code`, `status`, `details`.
 * @example
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8080', apiKey })
 * const { wallet } = await client.createWallet({ agentName: 'trader' })
 * const { transaction } = await client.send(wallet.address, { to, value: '0.01' })
 */
export function createClient(options: ClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/$/, '')
  const doFetch = options.fetch ?? fetch

  async function request<R>(
    method: string,
    path: string,
    { body, query, idempotencyKey }: RequestOptions = {},
  ): Promise<R> {
    const url = new URL(`${baseUrl}${path}`)
    for (const [name, value] of Object.entries(query ?? {}))
      if (value !== undefined) url.searchParams.set(name, String(value))
    const headers: Record<string, string> = { 'x-api-key': options.apiKey, accept: 'application/json' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey
    const response = await doFetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    })
    const text = await response.text()
    let parsed: unknown
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      parsed = undefined
    }
    const envelope = parsed as
      | { success?: boolean; error?: { code?: string; message?: string; details?: Record<string, unknown> } }
      | undefined
    if (!response.ok || envelope?.success === false) {
      throw new AgentWalletHttpError({
        code: envelope?.error?.code ?? 'http_error',
        message: envelope?.error?.message ?? `HTTP ${response.status}`,
        status: response.status,
        details: envelope?.error?.details,
        requestId: response.headers.get('x-request-id') ?? undefined,
      })
    }
    return parsed as R
  }

  const at = (address: string) => `/wallet/${encodeURIComponent(address)}`
  return {
    listWallets: () => request<T.WalletListResponse>('GET', '/wallet/list'),
    createWallet: (body: T.CreateWalletParameters, opts: { idempotencyKey?: string } = {}) =>
      request<T.WalletResponse>('POST', '/wallet/create', { body, ...opts }),
    importWallet: (body: T.ImportWalletParameters, opts: { idempotencyKey?: string } = {}) =>
      request<T.WalletResponse>('POST', '/wallet/import', { body, ...opts }),
    getBalance: (address: string, query: { chain?: string; tokens?: string[] } = {}) =>
      request<T.BalanceResponse>('GET', `${at(address)}/balance`, {
        query: { chain: query.chain, tokens: query.tokens?.join(',') },
      }),
    send: (address: string, body: T.SendParameters, opts: { idempotencyKey?: string } = {}) =>
      request<T.SendResponse>('POST', `${at(address)}/send`, { body, ...opts }),
    getTransaction: (hash: string, query: { chain?: string } = {}) =>
      request<T.TransactionResponse>('GET', `/wallet/tx/${encodeURIComponent(hash)}`, { query }),
    listHistory: (address: string, query: T.ListHistoryParameters = {}) =>
      request<T.HistoryResponse>('GET', `${at(address)}/history`, {
        query: query as Record<string, number | undefined>,
      }),
    estimateGas: (body: T.EstimateGasParameters) =>
      request<T.EstimateGasResponse>('POST', '/wallet/estimate-gas', { body }),
    getPolicyRules: (query: { wallet?: string } = {}) =>
      request<T.PolicyRulesResponse>('GET', '/policy/rules', { query }),
    updatePolicyRules: (body: T.UpdatePolicyParameters) =>
      request<T.PolicyRulesResponse>('POST', '/policy/update', { body }),
    evaluatePolicy: (body: T.EstimateGasParameters) =>
      request<T.EvaluateResponse>('POST', '/policy/evaluate', { body }),
    listApprovals: (query: T.ListApprovalsParameters = {}) =>
      request<T.ApprovalListResponse>('GET', '/policy/approvals', {
        query: query as Record<string, string | number | undefined>,
      }),
    approve: (approvalId: string, body: { reason?: string } = {}) =>
      request<T.ResolveApprovalResponse>(
        'POST',
        `/policy/approvals/${encodeURIComponent(approvalId)}/approve`,
        { body },
      ),
    reject: (approvalId: string, body: { reason?: string } = {}) =>
      request<T.ResolveApprovalResponse>(
        'POST',
        `/policy/approvals/${encodeURIComponent(approvalId)}/reject`,
        { body },
      ),
    createApiKey: (body: T.CreateApiKeyParameters) =>
      request<T.ApiKeyCreatedResponse>('POST', '/api-keys', { body }),
    listApiKeys: () => request<T.ApiKeyListResponse>('GET', '/api-keys'),
    revokeApiKey: (id: string) => request<{ success: true }>('DELETE', `/api-keys/${encodeURIComponent(id)}`),
    createTenant: (body: { name: string }) => request<T.TenantCreatedResponse>('POST', '/tenants', { body }),
    health: () => request<{ success: true; status: string }>('GET', '/health'),
    /** Any path, for endpoints this client does not wrap yet. */
    request,
  }
}

export type AgentWalletClient = ReturnType<typeof createClient>

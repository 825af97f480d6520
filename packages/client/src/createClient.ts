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
 * A 202 (a step paused for approval) is a success: its body has `status: 'pending_approval'` and the `approval`.
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
  const safeAt = (address: string) => `/multisig/${encodeURIComponent(address)}`
  return {
    listWallets: (query: { limit?: number; offset?: number } = {}) =>
      request<T.WalletListResponse>('GET', '/wallet/list', { query }),
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
    getApproval: (approvalId: string) =>
      request<T.ApprovalResponse>('GET', `/policy/approvals/${encodeURIComponent(approvalId)}`),
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
    revokeApiKey: (id: string) =>
      request<T.ApiKeyRevokedResponse>('DELETE', `/api-keys/${encodeURIComponent(id)}`),
    createTenant: (body: { name: string }) => request<T.TenantCreatedResponse>('POST', '/tenants', { body }),
    registerIdentity: (body: T.RegisterIdentityParameters, opts: { idempotencyKey?: string } = {}) =>
      request<T.IdentityCreatedResponse>('POST', '/identity/create', { body, ...opts }),
    listIdentities: () => request<T.IdentityListResponse>('GET', '/identity/list'),
    getIdentityRegistration: (registrationId: string) =>
      request<T.IdentityRegistrationResponse>(
        'GET',
        `/identity/registration/${encodeURIComponent(registrationId)}`,
      ),
    identitiesOfWallet: (address: string) =>
      request<T.WalletIdentitiesResponse>('GET', `/identity/wallet/${encodeURIComponent(address)}`),
    getIdentity: (agentId: string, query: { chain?: string } = {}) =>
      request<T.IdentityResponse>('GET', `/identity/${encodeURIComponent(agentId)}`, { query }),
    listEnsNames: () => request<T.EnsListResponse>('GET', '/ens/list'),
    checkEnsName: (name: string, query: T.CheckEnsNameOptions = {}) =>
      request<T.EnsCheckResponse>('GET', `/ens/check/${encodeURIComponent(name)}`, { query }),
    registerEnsName: (body: T.RegisterEnsNameParameters, opts: { idempotencyKey?: string } = {}) =>
      request<T.EnsRegisterResponse>('POST', '/ens/register', { body, ...opts }),
    getEnsRegistration: (registrationId: string) =>
      request<T.EnsRegistrationResponse>('GET', `/ens/registration/${encodeURIComponent(registrationId)}`),
    reverseEnsName: (address: string, query: T.ResolveEnsNameOptions = {}) =>
      request<T.EnsReverseResponse>('GET', `/ens/reverse/${encodeURIComponent(address)}`, { query }),
    resolveEnsName: (name: string, query: T.ResolveEnsNameOptions = {}) =>
      request<T.EnsResolveResponse>('GET', `/ens/${encodeURIComponent(name)}`, { query }),
    swap: (body: T.SwapParameters, opts: { idempotencyKey?: string } = {}) =>
      request<T.SwapResponse>('POST', '/defi/swap', { body, ...opts }),
    getSwap: (swapId: string) =>
      request<T.SwapOperationResponse>('GET', `/defi/swap/${encodeURIComponent(swapId)}`),
    quoteSwap: (query: T.QuoteSwapParameters) => request<T.QuoteResponse>('GET', '/defi/quote', { query }),
    stake: (body: T.StakeParameters, opts: { idempotencyKey?: string } = {}) =>
      request<T.StakeResponse>('POST', '/defi/stake', { body, ...opts }),
    getPrices: (query: T.PricesParameters) =>
      request<T.PricesResponse>('GET', '/defi/prices', {
        query: {
          chain: query.chain,
          tokens: Array.isArray(query.tokens) ? query.tokens.join(',') : query.tokens,
        },
      }),
    deploySafe: (body: T.DeploySafeParameters, opts: { idempotencyKey?: string } = {}) =>
      request<T.DeploySafeResponse>('POST', '/multisig/deploy', { body, ...opts }),
    proposeSafeTransaction: (
      safe: string,
      body: T.ProposeSafeParameters,
      opts: { idempotencyKey?: string } = {},
    ) => request<T.SafeProposalResponse>('POST', `${safeAt(safe)}/propose`, { body, ...opts }),
    confirmSafeTransaction: (
      safe: string,
      body: T.ConfirmSafeParameters,
      opts: { idempotencyKey?: string } = {},
    ) => request<T.SafeConfirmResponse>('POST', `${safeAt(safe)}/confirm`, { body, ...opts }),
    getSafe: (safe: string, query: T.GetSafeParameters = {}) =>
      request<T.SafeResponse>('GET', safeAt(safe), { query }),
    subscribeWebhook: (body: T.SubscribeWebhookParameters) =>
      request<T.WebhookSubscribedResponse>('POST', '/webhooks/subscribe', { body }),
    listWebhooks: () => request<T.WebhookListResponse>('GET', '/webhooks/list'),
    listWebhookDeliveries: (query: T.ListDeliveriesParameters = {}) =>
      request<T.WebhookDeliveriesResponse>('GET', '/webhooks/logs', {
        query: query as Record<string, string | number | undefined>,
      }),
    /** The same log as `listWebhookDeliveries`, at the server's alias path. */
    listWebhookHistory: (query: T.ListDeliveriesParameters = {}) =>
      request<T.WebhookDeliveriesResponse>('GET', '/webhooks/history', {
        query: query as Record<string, string | number | undefined>,
      }),
    retryWebhookDelivery: (deliveryId: string) =>
      request<T.WebhookDeliveryResponse>('POST', `/webhooks/logs/${encodeURIComponent(deliveryId)}/retry`),
    deleteWebhook: (id: string) =>
      request<T.WebhookDeletedResponse>('DELETE', `/webhooks/${encodeURIComponent(id)}`),
    health: () => request<T.HealthResponse>('GET', '/health'),
    onboarding: () => request<T.OnboardingResponse>('GET', '/onboarding'),
    openApi: () => request<T.OpenApiDocument>('GET', '/openapi.json'),
    /** Any path, for endpoints this client does not wrap yet. */
    request,
  }
}

export type AgentWalletClient = ReturnType<typeof createClient>

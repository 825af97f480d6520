import { type AgentWalletClient, createClient } from '@agentwallet/client'
import type {
  ApprovalRecord,
  CheckEnsNameReturnType,
  EnsRegistration,
  GetIdentityReturnType,
  GetPricesReturnType,
  GetSafeReturnType,
  Identity,
  IdentityRegistration,
  ListIdentitiesReturnType,
  QuoteSwapReturnType,
  ResolveEnsNameReturnType,
  TransactionView,
} from '@agentwallet/core'
import type {
  AgentWalletBackend,
  ApprovalStatus,
  IdentityOutcome,
  MultisigOutcome,
  SendOutcome,
} from './agentWalletBackend.js'
import { type ApprovalInstructionsOptions, approvalInstructions } from './approvalInstructions.js'
import { pendingApproval } from './settledView.js'

export type RemoteBackendOptions = {
  /** The AgentWallet server, e.g. `http://127.0.0.1:8080`. */
  url: string
  /** An API key with role `agent`. */
  apiKey: string
  /** Where humans approve: defaults to `url`; a dashboard page per approval (`{id}`) when you have one. */
  approvals?: ApprovalInstructionsOptions | undefined
  fetch?: typeof fetch | undefined
  timeoutMs?: number | undefined
}

/**
 * The tools' backend over HTTP: the typed client against a running server, as the key's principal.
 * @example const backend = remoteBackend({ url: process.env.AGENTWALLET_URL, apiKey: process.env.AGENTWALLET_API_KEY })
 */
export function remoteBackend(options: RemoteBackendOptions): AgentWalletBackend {
  const client: AgentWalletClient = createClient({
    baseUrl: options.url,
    apiKey: options.apiKey,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
  })
  const approvals = { serverUrl: options.url, ...options.approvals }
  const withInstructions = (approval: ApprovalRecord): ApprovalStatus =>
    approval.status === 'pending'
      ? { ...approval, howToApprove: approvalInstructions(approval.id, approvals) }
      : approval
  return {
    kind: 'remote',
    listWallets: async () => (await client.listWallets()).wallets,
    async getBalance(address, parameters = {}) {
      const { address: wallet, chain, eth, wei, tokens } = await client.getBalance(address, parameters)
      // The server sends the addresses core produced: checksummed hex.
      return {
        address: wallet as `0x${string}`,
        chain,
        eth,
        wei,
        tokens: tokens.map((token) => ({ ...token, address: token.address as `0x${string}` })),
      }
    },
    async send(address, parameters, sendOptions = {}): Promise<SendOutcome> {
      const response = await client.send(address, parameters, {
        ...(sendOptions.idempotencyKey ? { idempotencyKey: sendOptions.idempotencyKey } : {}),
      })
      if (response.status !== 'pending_approval')
        return { status: response.status, hash: response.hash, transaction: response.transaction }
      const { id, expiresAt, ruleId, reason } = response.approval
      return {
        status: 'pending_approval',
        hash: null,
        transaction: response.transaction,
        approval: {
          id,
          status: 'pending',
          expiresAt,
          ruleId,
          reason,
          howToApprove: approvalInstructions(id, approvals),
        },
      }
    },
    async estimateGas(parameters) {
      const { success: _, estimate } = await client.estimateGas(parameters)
      return estimate
    },
    getTransaction: async (hashOrId) => (await client.getTransaction(hashOrId)).transaction,
    getApproval: async (approvalId) => withInstructions((await client.getApproval(approvalId)).approval),
    async listApprovals(parameters) {
      const { count, approvals: list } = await client.listApprovals(parameters)
      return { count, approvals: list.map(withInstructions) }
    },
    // Identity and ENS routes are not wrapped by the client yet: its `request` reaches them.
    async registerIdentity(parameters, idempotency = {}): Promise<IdentityOutcome> {
      const body = await client.request<{
        status?: string
        approval?: { id: string; expiresAt: string; ruleId: string | null; reason: string }
        identity: Identity | IdentityRegistration
      }>('POST', '/identity/create', { body: parameters, ...idempotency })
      if (body.status !== 'pending_approval' || !body.approval) return body.identity as Identity
      const { id, expiresAt, ruleId, reason } = body.approval
      return {
        status: 'pending_approval',
        approval: {
          id,
          status: 'pending',
          expiresAt,
          ruleId,
          reason,
          howToApprove: approvalInstructions(id, approvals),
        },
        identity: body.identity as IdentityRegistration,
      }
    },
    async getIdentity(agentId, query = {}) {
      const path = `/identity/${encodeURIComponent(agentId)}`
      return (await client.request<{ identity: GetIdentityReturnType }>('GET', path, { query })).identity
    },
    listIdentities: async () =>
      withoutSuccess(await client.request<ListIdentitiesReturnType & Envelope>('GET', '/identity/list')),
    async checkEnsName(name, query = {}) {
      const path = `/ens/check/${encodeURIComponent(name)}`
      return withoutSuccess(await client.request<CheckEnsNameReturnType & Envelope>('GET', path, { query }))
    },
    async resolveEnsName(name, query = {}) {
      return withoutSuccess(
        await client.request<ResolveEnsNameReturnType & Envelope>('GET', `/ens/${encodeURIComponent(name)}`, {
          query,
        }),
      )
    },
    async registerEnsName(parameters, idempotency = {}) {
      const body = await client.request<{ registration: EnsRegistration }>('POST', '/ens/register', {
        body: parameters,
        ...idempotency,
      })
      return body.registration
    },
    getEnsRegistration: async (registrationId) =>
      (await client.getEnsRegistration(registrationId)).registration,
    async quoteSwap(parameters) {
      const query = parameters as Record<string, string | undefined>
      return withoutSuccess(
        await client.request<QuoteSwapReturnType & Envelope>('GET', '/defi/quote', { query }),
      )
    },
    swap: async (parameters, idempotency = {}) =>
      settled(await client.request<Settled>('POST', '/defi/swap', { body: parameters, ...idempotency })),
    getSwap: async (swapId) => (await client.getSwap(swapId)).swap,
    stake: async (parameters, idempotency = {}) =>
      settled(await client.request<Settled>('POST', '/defi/stake', { body: parameters, ...idempotency })),
    async getPrices(parameters) {
      const tokens = Array.isArray(parameters.tokens) ? parameters.tokens.join(',') : parameters.tokens
      const query = { tokens, chain: parameters.chain }
      return withoutSuccess(
        await client.request<GetPricesReturnType & Envelope>('GET', '/defi/prices', { query }),
      )
    },
    async proposeSafeTransaction(safe, parameters, idempotency = {}) {
      const path = `/multisig/${encodeURIComponent(safe)}/propose`
      return settled(
        await client.request<Settled>('POST', path, { body: parameters, ...idempotency }),
      ) as MultisigOutcome
    },
    async confirmSafeTransaction(safe, parameters, idempotency = {}) {
      const path = `/multisig/${encodeURIComponent(safe)}/confirm`
      return settled(
        await client.request<Settled>('POST', path, { body: parameters, ...idempotency }),
      ) as MultisigOutcome
    },
    async getSafe(safe, query = {}) {
      return (
        await client.request<{ safe: GetSafeReturnType }>('GET', `/multisig/${encodeURIComponent(safe)}`, {
          query,
        })
      ).safe
    },
  }

  /** The HTTP answer of a value-moving action, shaped like the in-process one. */
  // biome-ignore lint/suspicious/noExplicitAny: each action's fields pass through as the server sent them
  function settled(body: Settled): any {
    const { success: _, approval, transaction, ...rest } = body
    return {
      ...rest,
      hash: transaction?.hash ?? null,
      transaction: transaction ?? null,
      ...(approval ? { approval: pendingApproval(approval, approvals) } : {}),
    }
  }
}

type Envelope = { success?: true }

/** What the server answers for swap, stake and multisig actions: views, and a paused step's approval. */
type Settled = Envelope & {
  transaction?: TransactionView | null
  approval?: { id: string; expiresAt: string; ruleId: string | null; reason: string } | undefined
  [field: string]: unknown
}

/** The server's envelope flag is HTTP framing, not part of what the tool answers. */
function withoutSuccess<T extends Envelope>(body: T): Omit<T, 'success'> {
  const { success: _, ...rest } = body
  return rest
}

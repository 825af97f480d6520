/** The server's JSON shapes the dashboard reads (see docs/events.md, docs/policy.md and /openapi.json). */

export type Role = 'agent' | 'approver' | 'admin'

export type Wallet = {
  id: string
  address: string
  chain: string
  agentName: string
  /** `smart`: a smart account acted for through a session key (absent from servers before kinds). */
  kind?: 'eoa' | 'smart' | 'relayer'
  smart?: SmartWallet
  createdAt: string
}

type Allowance = { amount: string; period: number }

/** A smart wallet's session key and what the chain lets it do (base units). */
export type SmartWallet = {
  sessionKey: string
  owner: string
  expiresAt: string
  permissions: {
    targets?: string[]
    native?: { perCall?: string; allowance?: Allowance }
    tokens?: { token: string; allowance: Allowance }[]
  }
  offChainOnly: { ruleId?: string; type: string; reason: string }[]
  /** Wei the tenant's paymaster paid for this wallet since `since` (GET /wallet/:wallet; absent without one). */
  sponsoredGas?: { paymaster: string; spent: string; since: string }
}

export type Approval = {
  id: string
  walletId: string
  transactionId: string
  requestedBy: string
  status: 'pending' | 'approved' | 'rejected' | 'expired'
  ruleId?: string
  reason: string
  details?: Record<string, unknown>
  /** What the paused transaction does (docs/policy.md, Effects); absent for intents made before effects. */
  effects?: Effects
  effectsHash?: string
  expiresAt: string
  createdAt: string
  resolvedBy?: string
  resolvedAt?: string
  resolutionReason?: string
}

/** One thing a transaction does to the paying account: an asset out or in, or a permission granted or taken back. */
export type Effect = {
  kind: 'out' | 'in' | 'grant' | 'revoke'
  asset: { standard: string; address: string; symbol: string; decimals: number; tokenId?: string }
  amount: string
  unlimited?: true
  counterparty: string
  usd?: { value: string }
}

export type Effects =
  | { status: 'known'; source: 'decoded' | 'simulated' | 'receipt'; effects: Effect[] }
  | { status: 'reverted'; source: 'simulated'; reason: string }
  | { status: 'unknown'; reason: string }

export type TxStatus =
  | 'pending_approval'
  | 'rejected'
  | 'expired'
  | 'blocked'
  | 'queued'
  | 'submitted'
  | 'confirmed'
  | 'failed'

export type Transaction = {
  id: string
  hash: string | null
  status: TxStatus
  chain: string
  kind: string
  from: string
  to: string
  asset: { address: string; symbol: string; decimals: number }
  amount: string
  amountRaw: string
  /** What the amount was worth in US dollars when the intent was made (when a USD rule was in scope). */
  usd?: { value: string }
  blockNumber: number | null
  explorer: string | null
  approvalId: string | null
  policy: { decision: string; ruleId: string | null; reason: string }
  error: { code: string; message: string } | null
  /** What a higher-level action adds (a swap: venue, toToken, toSymbol, toDecimals, minAmountOut, …). */
  meta?: Record<string, unknown>
  createdAt: string
}

export type Balance = {
  address: string
  chain: string
  eth: string
  tokens: { address: string; symbol: string; decimals: number; balance: string }[]
}

export type PolicyRule = { id: string; type: string; enabled?: boolean; [field: string]: unknown }

export type RuleOutcome = {
  ruleId: string
  type: string
  scope: 'tenant' | 'wallet'
  decision: string
  reason: string
  details?: Record<string, unknown>
}

export type PolicyDecision = { decision: string; reason: string; outcomes?: RuleOutcome[] }

export type WebhookSubscription = {
  id: string
  url: string
  events: string[]
  description?: string
  status: 'active' | 'disabled'
  disabledReason?: string
  createdAt: string
}

export type WebhookAttempt = {
  at: string
  durationMs: number
  statusCode: number | null
  ok: boolean
  error?: string
  responseBytes?: number
  responseExcerpt?: string
}

export type WebhookDelivery = {
  id: string
  subscriptionId: string
  url: string
  eventId: string
  eventType: string
  webhookEvent: string
  seq: number
  status: 'pending' | 'delivered' | 'dead'
  attempts: WebhookAttempt[]
  nextAttemptAt: string
  createdAt: string
  updatedAt: string
}

/** One message of /ws: an event envelope, or the server's `ready` / `error` answers. */
export type WsMessage =
  | { type: 'ready'; tenantId: string; role: Role; since?: number }
  | { type: 'error'; error: { code: string; message: string } }
  | { id: string; type: string; seq: number; timestamp: string; data: Record<string, unknown> }

/** `GET /api-keys/names`: who a key id is (approvers and admins may read it). */
export type KeyName = { id: string; name: string; role: Role; revoked: boolean }

/** `GET /policy/approvals/:id/funds`: whether the wallet can still pay the paused intent. */
export type ApprovalFunds = {
  approvalId: string
  transactionId: string
  covered: boolean
  native: { balance: string; required: string | null; gasIncluded: boolean }
  token?: { symbol: string; balance: string; required: string }
}

export type DecodedArgument = { name: string; type: string; value: unknown; formatted?: string }

/** `GET /wallet/tx/:id/details`: the transaction page (the devnet's explorer). */
export type TransactionDetails = {
  transaction: Transaction
  call: {
    to: string
    contract: string | null
    value: string
    valueWei: string
    data: string
    decoded: { signature: string | null; function: string | null; args: DecodedArgument[] } | null
  }
  block: { number: number; timestamp: string } | null
  receipt: { status: 'success' | 'reverted'; gasUsed: string; effectiveGasPrice: string; fee: string } | null
  events: {
    logIndex: number
    address: string
    contract: string | null
    signature: string | null
    event: string | null
    args: DecodedArgument[]
    topics: string[]
    data: string
  }[]
}

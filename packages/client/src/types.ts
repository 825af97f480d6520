import type {
  ApiKeyView,
  ApprovalRecord,
  CheckEnsNameOptions,
  CheckEnsNameReturnType,
  ConfirmSafeParameters,
  ConfirmSafeTransactionReturnType,
  CreateApiKeyParameters,
  CreateWalletParameters,
  DeploySafeParameters,
  DeploySafeReturnType,
  EnsRegistration,
  EstimateGasReturnType,
  GetIdentityReturnType,
  GetPricesReturnType,
  GetSafeParameters,
  GetSafeReturnType,
  GetTransactionReturnType,
  Identity,
  IdentityRegistration,
  ImportWalletParameters,
  ListApprovalsParameters,
  ListDeliveriesParameters,
  ListEnsNamesReturnType,
  ListHistoryParameters,
  ListIdentitiesReturnType,
  PolicyDecision,
  PolicyRulesReturnType,
  PricesParameters,
  ProposeSafeParameters,
  QuoteSwapParameters,
  QuoteSwapReturnType,
  RegisterEnsNameParameters,
  RegisterIdentityParameters,
  ResolveEnsNameOptions,
  ResolveEnsNameReturnType,
  ReverseEnsNameReturnType,
  SendParameters,
  StakeParameters,
  StakeReturnType,
  SubscribeWebhookParameters,
  SwapOperation,
  SwapParameters,
  SwapReturnType,
  TenantRecord,
  TransactionView,
  UpdatePolicyParameters,
  Wallet,
  WebhookDeliveryRecord,
  WebhookSubscription,
} from '@agentwallet/core'

export type {
  CheckEnsNameOptions,
  ConfirmSafeParameters,
  CreateApiKeyParameters,
  CreateWalletParameters,
  DeploySafeParameters,
  GetSafeParameters,
  ImportWalletParameters,
  ListApprovalsParameters,
  ListDeliveriesParameters,
  ListHistoryParameters,
  PricesParameters,
  ProposeSafeParameters,
  QuoteSwapParameters,
  RegisterEnsNameParameters,
  RegisterIdentityParameters,
  ResolveEnsNameOptions,
  SendParameters,
  StakeParameters,
  SubscribeWebhookParameters,
  SwapParameters,
  UpdatePolicyParameters,
}

/** What a 202 carries when a step waits for a human: approve or reject it by `id`. */
export type PendingApproval = { id: string; expiresAt: string; ruleId: string | null; reason: string }

export type TokenBalanceView = {
  address: string
  symbol: string
  decimals: number
  balance: string
  raw: string
}
export type BalanceFigures = { chain: string; eth: string; wei: string; tokens: TokenBalanceView[] }

export type WalletResponse = { success: true; wallet: Wallet }
/** One page of wallets; `count` is the total. */
export type WalletListResponse = {
  success: true
  count: number
  limit: number
  offset: number
  wallets: Wallet[]
}
export type BalanceResponse = { success: true; address: string } & BalanceFigures & {
    balance: BalanceFigures
  }
export type SendResponse =
  | {
      success: true
      status: Exclude<TransactionView['status'], 'pending_approval'>
      hash: string | null
      transaction: TransactionView
    }
  | {
      success: true
      status: 'pending_approval'
      approval: PendingApproval
      transaction: TransactionView
    }
export type TransactionResponse = {
  success: true
  hash: string | null
  status: TransactionView['status']
  blockNumber: number | null
  explorer: string | null
  confirmations: number
  transaction: GetTransactionReturnType
}
export type HistoryResponse = {
  success: true
  count: number
  limit: number
  offset: number
  transactions: TransactionView[]
}
export type EstimateGasResponse = { success: true; estimate: EstimateGasReturnType } & EstimateGasReturnType
export type PolicyRulesResponse = { success: true } & PolicyRulesReturnType
export type EvaluateResponse = { success: true; decision: PolicyDecision }
export type ApprovalResponse = { success: true; approval: ApprovalRecord }
export type ApprovalListResponse = { success: true; count: number; approvals: ApprovalRecord[] }
export type ResolveApprovalResponse = {
  success: true
  approval: ApprovalRecord
  transaction: TransactionView
}
export type ApiKeyCreatedResponse = { success: true; apiKey: ApiKeyView; key: string }
export type ApiKeyListResponse = { success: true; count: number; apiKeys: ApiKeyView[] }
/** The revoked key, as it now stands (`revokedAt` set). */
export type ApiKeyRevokedResponse = { success: true; apiKey: ApiKeyView }
export type TenantCreatedResponse = { success: true; tenant: TenantRecord; apiKey: ApiKeyView; key: string }
export type EstimateGasParameters = SendParameters & { from: string }

export type OnboardingResponse = {
  success: true
  service: string
  chains: { name: string; chainId: number }[]
  auth: { header: string; roles: Record<string, string>; adminKey: string }
  steps: { title: string; command: string }[]
  docs: { openapi: string; health: string }
}
/** The OpenAPI 3.1 document of the server (`paths` keyed by template, e.g. `/wallet/{address}/send`). */
export type OpenApiDocument = {
  openapi: string
  info: { title: string; version: string; description?: string }
  paths: Record<string, Partial<Record<'get' | 'post' | 'delete', Record<string, unknown>>>>
  [field: string]: unknown
}

export type IdentityCreatedResponse =
  | { success: true; status: 'registered'; identity: Identity }
  | { success: true; status: 'pending_approval'; approval: PendingApproval; identity: IdentityRegistration }
export type IdentityResponse = { success: true; identity: GetIdentityReturnType }
export type IdentityListResponse = { success: true } & ListIdentitiesReturnType
export type WalletIdentitiesResponse = { success: true; address: string } & ListIdentitiesReturnType
export type IdentityRegistrationResponse = { success: true; registration: IdentityRegistration }

export type EnsListResponse = { success: true } & ListEnsNamesReturnType
export type EnsCheckResponse = { success: true } & CheckEnsNameReturnType
export type EnsRegisterResponse = {
  success: true
  status: EnsRegistration['status']
  registration: EnsRegistration
}
export type EnsRegistrationResponse = { success: true; registration: EnsRegistration }
export type EnsResolveResponse = { success: true } & ResolveEnsNameReturnType
export type EnsReverseResponse = { success: true } & ReverseEnsNameReturnType

/** 200 once mined; 202 with the approval and a `swapId` (follow it with `getSwap`) when a step waits. */
export type SwapResponse = { success: true } & Omit<
  SwapReturnType,
  'status' | 'transaction' | 'allowanceTransaction' | 'approval'
> & {
    allowanceTransaction: TransactionView | null
    transaction: TransactionView | null
    hash: string | null
  } & ({ status: 'confirmed' } | { status: 'pending_approval'; approval: PendingApproval; swapId: string })
export type SwapOperationResponse = { success: true; swap: SwapOperation }
export type QuoteResponse = { success: true } & QuoteSwapReturnType
/** 200 once mined; 202 with the approval when the stake waits for a human. */
export type StakeResponse = { success: true } & Omit<
  StakeReturnType,
  'status' | 'transaction' | 'approval'
> & {
    transaction: TransactionView
    hash: string | null
  } & ({ status: 'confirmed' } | { status: 'pending_approval'; approval: PendingApproval })
export type PricesResponse = { success: true } & GetPricesReturnType

/** 201 once deployed; 202 with the approval when the deployment waits for a human. */
export type DeploySafeResponse =
  | ({ success: true } & Omit<
      Extract<DeploySafeReturnType, { status: 'deployed' }>,
      'transaction' | 'approval'
    > & {
        transaction: TransactionView
      })
  | {
      success: true
      status: 'pending_approval'
      chain: string
      approval: PendingApproval
      transaction: TransactionView
    }
export type SafeProposalResponse = { success: true } & Omit<
  ConfirmSafeTransactionReturnType,
  'transaction'
> & {
    transaction: TransactionView | null
  }
export type SafeConfirmResponse = SafeProposalResponse & { hash: string | null }
export type SafeResponse = { success: true; safe: GetSafeReturnType }

export type WebhookSubscribedResponse = { success: true; subscription: WebhookSubscription; secret: string }
export type WebhookListResponse = { success: true; count: number; subscriptions: WebhookSubscription[] }
export type WebhookDeliveriesResponse = { success: true; count: number; deliveries: WebhookDeliveryRecord[] }
export type WebhookDeliveryResponse = { success: true; delivery: WebhookDeliveryRecord }
export type WebhookDeletedResponse = { success: true; deleted: string }

/** Liveness: no API key needed. */
export type HealthResponse = {
  success: true
  status: 'ok'
  version: string
  uptimeSeconds: number
  chains: { name: string; chainId: number }[]
}

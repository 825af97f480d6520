import type {
  ApiKeyView,
  ApprovalRecord,
  CreateApiKeyParameters,
  CreateWalletParameters,
  EstimateGasReturnType,
  GetTransactionReturnType,
  ImportWalletParameters,
  ListApprovalsParameters,
  ListHistoryParameters,
  PolicyDecision,
  PolicyRulesReturnType,
  SendParameters,
  TenantRecord,
  TransactionView,
  UpdatePolicyParameters,
  Wallet,
} from '@agentwallet/core'

export type {
  CreateApiKeyParameters,
  CreateWalletParameters,
  ImportWalletParameters,
  ListApprovalsParameters,
  ListHistoryParameters,
  SendParameters,
  UpdatePolicyParameters,
}

export type TokenBalanceView = {
  address: string
  symbol: string
  decimals: number
  balance: string
  raw: string
}
export type BalanceFigures = { chain: string; eth: string; wei: string; tokens: TokenBalanceView[] }

export type WalletResponse = { success: true; wallet: Wallet }
export type WalletListResponse = { success: true; count: number; wallets: Wallet[] }
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
      approval: { id: string; expiresAt: string; ruleId: string | null; reason: string }
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
export type ApprovalListResponse = { success: true; count: number; approvals: ApprovalRecord[] }
export type ResolveApprovalResponse = {
  success: true
  approval: ApprovalRecord
  transaction: TransactionView
}
export type ApiKeyCreatedResponse = { success: true; apiKey: ApiKeyView; key: string }
export type ApiKeyListResponse = { success: true; count: number; apiKeys: ApiKeyView[] }
export type TenantCreatedResponse = { success: true; tenant: TenantRecord; apiKey: ApiKeyView; key: string }
export type EstimateGasParameters = SendParameters & { from: string }

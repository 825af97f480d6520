import type {
  ApprovalRecord,
  CheckEnsNameOptions,
  CheckEnsNameReturnType,
  EnsRegistration,
  EstimateGasReturnType,
  GetBalanceParameters,
  GetBalanceReturnType,
  GetIdentityReturnType,
  GetTransactionReturnType,
  ListApprovalsParameters,
  ListIdentitiesReturnType,
  RegisterEnsNameParameters,
  RegisterIdentityParameters,
  RegisterIdentityReturnType,
  ResolveEnsNameOptions,
  ResolveEnsNameReturnType,
  SendParameters,
  TransactionView,
  Wallet,
} from '@agentwallet/core'
import type { ApprovalInstructions } from './approvalInstructions.js'

/** A paused send's approval, with what a human does to let it through. */
export type PendingApproval = {
  id: string
  status: ApprovalRecord['status']
  expiresAt: string
  ruleId: string | null
  reason: string
  howToApprove: ApprovalInstructions
}

/** What a send answers through either backend: the transaction, and the approval when paused. */
export type SendOutcome =
  | { status: 'pending_approval'; hash: null; transaction: TransactionView; approval: PendingApproval }
  | {
      status: Exclude<TransactionView['status'], 'pending_approval'>
      hash: string | null
      transaction: TransactionView
    }

/** One approval as an agent sees it; `howToApprove` while it still waits for a human. */
export type ApprovalStatus = ApprovalRecord & { howToApprove?: ApprovalInstructions | undefined }

/**
 * What the agent tools need from AgentWallet, in-process or over HTTP. Deliberately without
 * approve, reject, policy changes, key management or key export: a tool cannot reach what the
 * backend does not have.
 */
export type AgentWalletBackend = {
  kind: 'in-process' | 'remote'
  listWallets(): Promise<Wallet[]>
  getBalance(address: string, parameters?: GetBalanceParameters): Promise<GetBalanceReturnType>
  send(address: string, parameters: SendParameters, options?: IdempotencyOption): Promise<SendOutcome>
  estimateGas(parameters: SendParameters & { from: string }): Promise<EstimateGasReturnType>
  getTransaction(hashOrId: string): Promise<GetTransactionReturnType>
  getApproval(approvalId: string): Promise<ApprovalStatus>
  listApprovals(parameters?: ListApprovalsParameters): Promise<{ count: number; approvals: ApprovalStatus[] }>
  registerIdentity(
    parameters: RegisterIdentityParameters,
    options?: IdempotencyOption,
  ): Promise<RegisterIdentityReturnType>
  getIdentity(agentId: string, options?: { chain?: string | undefined }): Promise<GetIdentityReturnType>
  listIdentities(): Promise<ListIdentitiesReturnType>
  checkEnsName(name: string, options?: CheckEnsNameOptions): Promise<CheckEnsNameReturnType>
  resolveEnsName(name: string, options?: ResolveEnsNameOptions): Promise<ResolveEnsNameReturnType>
  registerEnsName(
    parameters: RegisterEnsNameParameters,
    options?: IdempotencyOption,
  ): Promise<EnsRegistration>
  getEnsRegistration(registrationId: string): Promise<EnsRegistration>
}

/** A retry of a value-moving tool under the same key answers the first call instead of acting twice. */
export type IdempotencyOption = { idempotencyKey?: string | undefined }

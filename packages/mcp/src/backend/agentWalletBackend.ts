import type {
  ApprovalRecord,
  CheckEnsNameOptions,
  CheckEnsNameReturnType,
  ConfirmSafeParameters,
  ConfirmSafeTransactionReturnType,
  EnsRegistration,
  EstimateGasReturnType,
  GetBalanceParameters,
  GetBalanceReturnType,
  GetIdentityReturnType,
  GetPricesReturnType,
  GetSafeParameters,
  GetSafeReturnType,
  GetTransactionReturnType,
  Identity,
  IdentityRegistration,
  ListApprovalsParameters,
  ListIdentitiesReturnType,
  PricesParameters,
  ProposeSafeParameters,
  QuoteSwapParameters,
  QuoteSwapReturnType,
  RegisterEnsNameParameters,
  RegisterIdentityParameters,
  ResolveEnsNameOptions,
  ResolveEnsNameReturnType,
  SendParameters,
  StakeParameters,
  StakeReturnType,
  SwapOperation,
  SwapParameters,
  SwapReturnType,
  TransactionView,
  Wallet,
} from '@agentwallet/core'
import type { ApprovalInstructions } from './approvalInstructions.js'
import type { SettledView } from './settledView.js'

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

/** An identity registration: the identity when done at once, or paused with the approval to wait for. */
export type IdentityOutcome =
  | Identity
  | { status: 'pending_approval'; approval: PendingApproval; identity: IdentityRegistration }

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
  ): Promise<IdentityOutcome>
  getIdentity(agentId: string, options?: { chain?: string | undefined }): Promise<GetIdentityReturnType>
  listIdentities(): Promise<ListIdentitiesReturnType>
  checkEnsName(name: string, options?: CheckEnsNameOptions): Promise<CheckEnsNameReturnType>
  resolveEnsName(name: string, options?: ResolveEnsNameOptions): Promise<ResolveEnsNameReturnType>
  registerEnsName(
    parameters: RegisterEnsNameParameters,
    options?: IdempotencyOption,
  ): Promise<EnsRegistration>
  getEnsRegistration(registrationId: string): Promise<EnsRegistration>
  quoteSwap(parameters: QuoteSwapParameters): Promise<QuoteSwapReturnType>
  swap(parameters: SwapParameters, options?: IdempotencyOption): Promise<SettledView<SwapReturnType>>
  getSwap(swapId: string): Promise<SwapOperation>
  stake(parameters: StakeParameters, options?: IdempotencyOption): Promise<SettledView<StakeReturnType>>
  getPrices(parameters: PricesParameters): Promise<GetPricesReturnType>
  proposeSafeTransaction(
    safe: string,
    parameters: ProposeSafeParameters,
    options?: IdempotencyOption,
  ): Promise<MultisigOutcome>
  confirmSafeTransaction(
    safe: string,
    parameters: ConfirmSafeParameters,
    options?: IdempotencyOption,
  ): Promise<MultisigOutcome>
  getSafe(safe: string, parameters?: GetSafeParameters): Promise<GetSafeReturnType>
}

/** A proposal after a propose or confirm: signatures so far, and the execution once at threshold. */
export type MultisigOutcome = SettledView<ConfirmSafeTransactionReturnType>

/** A retry of a value-moving tool under the same key answers the first call instead of acting twice. */
export type IdempotencyOption = { idempotencyKey?: string | undefined }

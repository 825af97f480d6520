import type { Address, Hex } from 'viem'
import type { StoredSafeTx } from './safeTransaction.js'

/** A Safe this service deployed (collection `multisig_wallets`). */
export type MultisigWalletRecord = {
  id: string
  tenantId: string
  chain: string
  chainId: number
  address: Address
  owners: Address[]
  threshold: number
  singleton: Address
  saltNonce: string
  /** The managed wallet that paid for the deployment. */
  deployedBy: string
  deployTransactionId: string
  deployHash: Hex
  createdBy: string
  createdAt: string
}

/** One owner's signature over the safeTxHash: from a managed wallet, or given by an outside owner. */
export type SafeSignature = {
  owner: Address
  signature: Hex
  source: 'managed' | 'external'
  walletId?: string | undefined
  addedBy: string
  addedAt: string
}

type ProposalBase = {
  id: string
  tenantId: string
  chain: string
  chainId: number
  safeAddress: Address
  safeTxHash: Hex
  tx: StoredSafeTx
  proposerWalletId: string
  proposer: Address
  proposedBy: string
  signatures: SafeSignature[]
  createdAt: string
  updatedAt: string
}

/**
 * A proposed Safe transaction (collection `multisig_proposals`). `pending` collects signatures;
 * `executing` has an execTransaction on the money path (sent, or paused for approval); `executed`
 * only after its receipt confirmed with ExecutionSuccess; `failed` when it reverted or Safe
 * reported ExecutionFailure.
 */
export type SafeProposalRecord =
  | (ProposalBase & { status: 'pending'; lastError?: { code: string; message: string } | undefined })
  | (ProposalBase & { status: 'executing'; executor: Address; transactionId: string })
  | (ProposalBase & {
      status: 'executed'
      executor: Address
      transactionId: string
      executionHash: Hex
      executedAt: string
    })
  | (ProposalBase & {
      status: 'failed'
      executor?: Address | undefined
      transactionId?: string | undefined
      executionHash?: Hex | undefined
      reason: string
    })

export type SafeProposalStatus = SafeProposalRecord['status']

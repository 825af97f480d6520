import type { Address } from 'viem'
import type { SwapParameters } from './defiSchemas.js'
import type { TokenView } from './quoteSwap.js'

/** The on-chain steps of a swap: the ERC-20 `approve` (when the allowance is short), then the swap. */
export type SwapStep = 'allowance' | 'swap'

/** How a tracked swap's steps are keyed: `swap:{swapId}:{step}`, request `{ swapId, step }`. */
export const swapSteps = { name: 'swap', idName: 'swapId' } as const

/** awaiting_approval (a step paused by a `require_approval` rule) ⇄ swapping → confirmed | failed. */
export type SwapStatus = 'awaiting_approval' | 'swapping' | 'confirmed' | 'failed'

export const activeSwapStatuses: readonly SwapStatus[] = ['awaiting_approval', 'swapping']

/** What every tracked swap carries, whatever its step. */
type SwapRecordBase = {
  /** `swp_…` */
  id: string
  tenantId: string
  walletId: string
  /** Owner of the wallet record (agents see only their own). */
  ownerId: string
  walletAddress: Address
  /** Who asked: later steps run on the money path as this principal, also after a restart. */
  requestedBy: { id: string; role: 'agent' | 'approver' | 'admin' }
  chain: string
  /** The request as it was accepted (a later step quotes again from it). */
  request: Omit<SwapParameters, 'wallet' | 'chain'>
  fromToken: TokenView
  toToken: TokenView
  status: SwapStatus
  /** The approval the current step waits for. */
  approvalId?: string | undefined
  /** Known once the swap step is sent (the venue is chosen again after an approved allowance). */
  venue?: string | undefined
  source?: string | undefined
  minAmountOutRaw?: string | undefined
  /** What the wallet received, from the receipt, once confirmed. */
  amountOutRaw?: string | undefined
  error?: { code: string; message: string } | undefined
  createdAt: string
  updatedAt: string
}

/** Where a tracked swap is: the step it is on, and the transactions of each step sent so far. */
export type SwapProgress =
  | { step: 'allowance'; transactions: { allowance: string; swap?: undefined } }
  | { step: 'swap'; transactions: { allowance?: string | undefined; swap: string } }

/**
 * A swap that paused for approval, tracked until it ends (collection `swaps`): the request as sent,
 * the step it is on and the transactions of each step (the current step's always). A swap that runs
 * straight through is not stored here: its answer already holds everything.
 */
export type SwapRecord = SwapRecordBase & SwapProgress

/**
 * The transaction of the step a tracked swap is on.
 * @example const done = await waitFinal(ctx, stepTransactionOf(record), signal)
 */
export function stepTransactionOf(record: SwapProgress): string {
  return record.step === 'swap' ? record.transactions.swap : record.transactions.allowance
}

/** A paused swap as the API shows it (`GET /defi/swap/:id`). */
export type SwapOperation = {
  id: string
  status: SwapStatus
  step: SwapStep
  approvalId: string | null
  chain: string
  wallet: Address
  fromToken: TokenView
  toToken: TokenView
  amountIn: string
  venue: string | null
  source: string | null
  minAmountOutRaw: string | null
  amountOutRaw: string | null
  transactions: { allowance?: string | undefined; swap?: string | undefined }
  error: { code: string; message: string } | null
  createdAt: string
  updatedAt: string
}

export function toSwapOperation(record: SwapRecord): SwapOperation {
  return {
    id: record.id,
    status: record.status,
    step: record.step,
    approvalId: record.approvalId ?? null,
    chain: record.chain,
    wallet: record.walletAddress,
    fromToken: record.fromToken,
    toToken: record.toToken,
    amountIn: record.request.amount,
    venue: record.venue ?? null,
    source: record.source ?? null,
    minAmountOutRaw: record.minAmountOutRaw ?? null,
    amountOutRaw: record.amountOutRaw ?? null,
    transactions: record.transactions,
    error: record.error ?? null,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
}

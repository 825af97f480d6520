import type { Address } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { NotFoundError } from '../errors/errors.js'
import { resumeOperations, runOperation } from '../operations/backgroundOperations.js'
import { stepFailed, waitFinal } from '../operations/operationSteps.js'
import type { StepMachine, StepRun } from '../operations/stepMachine.js'
import type { Principal } from '../principals/types.js'
import { isIncluded } from '../transactions/types.js'
import { canSee } from '../wallets/findWallet.js'
import type { WalletRecord } from '../wallets/types.js'
import { receivedAmount, runSwap, type SwapInput, type SwapPass, swapSent } from './swap.js'
import { renewSwapDeadline } from './swapDeadline.js'
import {
  activeSwapStatuses,
  type SwapOperation,
  type SwapProgress,
  type SwapRecord,
  type SwapStep,
  stepTransactionOf,
  swapSteps,
  toSwapOperation,
} from './swapTypes.js'

/**
 * Records a swap whose allowance or swap step paused for approval, and follows it in the background:
 * the paused transaction's outcome decides whether the next step runs or the swap fails.
 * (A crash between the pause and this record loses only the follow-up: the paused step itself is
 * an approval like any other.)
 */
export async function trackPausedSwap(
  ctx: AgentWalletContext,
  principal: Principal,
  wallet: WalletRecord,
  chain: ChainHandle,
  input: SwapInput & { wallet?: string | undefined; chain?: string | undefined },
  paused: SwapPass,
): Promise<SwapRecord> {
  const { wallet: _wallet, chain: _chain, ...request } = input
  const now = ctx.now().toISOString()
  const record: SwapRecord = {
    id: ctx.newId('swp'),
    tenantId: wallet.tenantId,
    walletId: wallet.id,
    ownerId: wallet.ownerId,
    walletAddress: wallet.address,
    requestedBy: { id: principal.id, role: principal.role },
    chain: chain.name,
    request,
    fromToken: paused.fromToken,
    toToken: paused.toToken,
    ...stepOf(paused),
    createdAt: now,
    updatedAt: now,
  }
  await ctx.storage.transaction([], (tx) => tx.put('swaps', record))
  continueSwap(ctx, record.id)
  return record
}

/**
 * One tracked swap by its `swp_…` id: its status, the step it is on and the approval it waits for
 * (poll it after a 202 from `swap`).
 * @example const { swap } = await getSwap(ctx, principal, { swapId: 'swp_…' })
 */
export async function getSwap(
  ctx: AgentWalletContext,
  principal: Principal,
  { swapId: id }: { swapId: string },
): Promise<{ swap: SwapOperation }> {
  const record = await ctx.storage.get('swaps', id)
  if (!record || !canSee(principal, record)) throw new NotFoundError('Swap', { details: { id } })
  return { swap: toSwapOperation(record) }
}

/** Runs the swap's remaining steps in the background (once per record and context). */
export function continueSwap(ctx: AgentWalletContext, id: string): void {
  runOperation(ctx, trackedSwap, id)
}

/**
 * Picks up swaps a previous process left unfinished (the composition root resumes every registered
 * operation at start; this is the swap part alone).
 * @example await resumeSwaps(ctx)
 */
export function resumeSwaps(ctx: AgentWalletContext): Promise<void> {
  return resumeOperations(ctx, [trackedSwap])
}

/**
 * A swap that paused for approval, as a step machine: waits for the current step's transaction; an
 * approved allowance is followed by a fresh quote and the swap (which may pause again); a confirmed
 * swap records what the wallet received. Each submit is replay-safe (`swap:{id}:{step}`).
 */
export const trackedSwap: StepMachine<SwapRecord, SwapStep> = {
  ...swapSteps,
  collection: 'swaps',
  activeStatuses: activeSwapStatuses,
  load: (ctx, id) => ctx.storage.get('swaps', id),
  save: (tx, record) => tx.put('swaps', record),
  stepOf: (record) => record.step,
  steps: {
    allowance: {},
    // A swap's deadline lapses while it waits for an approver or sits stuck: renewed when re-signed.
    swap: { refreshCall: (_ctx, chain, record) => renewSwapDeadline(chain, record) },
  },
  advance: advanceSwap,
  failed: (record, error) => ({ ...record, status: 'failed', approvalId: undefined, error }),
}

/** One step of a tracked swap: its transaction's outcome, then the next pass or what it received. */
async function advanceSwap(
  ctx: AgentWalletContext,
  record: SwapRecord,
  { signal }: StepRun,
): Promise<SwapRecord | undefined> {
  const done = await waitFinal(ctx, stepTransactionOf(record), signal)
  if (!done) return undefined
  if (!isIncluded(done)) throw stepFailed('swap', record.step, done)
  const chain = ctx.chains.get(record.chain)
  if (record.step === 'swap') {
    const received = await receivedAmount(chain, record.toToken, record.walletAddress, done)
    return save(ctx, {
      ...record,
      status: 'confirmed',
      approvalId: undefined,
      amountOutRaw: received.toString(),
    })
  }
  const wallet = await ctx.storage.get('wallets', record.walletId)
  if (!wallet) throw new NotFoundError('Wallet', { details: { id: record.walletId } })
  const principal: Principal = { tenantId: record.tenantId, ...record.requestedBy }
  const swapping =
    record.status === 'swapping'
      ? record
      : await save(ctx, { ...record, status: 'swapping', approvalId: undefined })
  // The approve granted exactly the amount to one spender: the swap goes where it can be spent.
  const spender = typeof done.meta?.spender === 'string' ? (done.meta.spender as Address) : undefined
  const next = stepOf(await runSwap(ctx, principal, wallet, chain, swapping.request, swapping.id, spender))
  // A pass after an approved allowance sends no approve of its own: the approved one stays.
  const allowance = next.transactions.allowance ?? swapping.transactions.allowance
  return save(ctx, {
    ...swapping,
    ...next,
    ...(next.step === 'swap'
      ? { step: next.step, transactions: { ...next.transactions, allowance } }
      : { step: next.step, transactions: next.transactions }),
  })
}

/** The record fields a pass's answer sets: where it stopped, or what it received. */
function stepOf(
  result: SwapPass,
): SwapProgress &
  Pick<SwapRecord, 'status' | 'approvalId' | 'venue' | 'source' | 'minAmountOutRaw' | 'amountOutRaw'> {
  const status = result.status === 'confirmed' ? 'confirmed' : 'awaiting_approval'
  const allowance = result.allowanceTransaction?.id
  if (!swapSent(result)) {
    // The venue is known once the swap itself is built (an approved allowance quotes again).
    return {
      status,
      step: 'allowance',
      approvalId: result.approval.id,
      transactions: { allowance: result.allowanceTransaction.id },
      venue: undefined,
      source: undefined,
      minAmountOutRaw: undefined,
      amountOutRaw: undefined,
    }
  }
  return {
    status,
    step: 'swap',
    approvalId: result.approval?.id,
    transactions: { allowance, swap: result.transaction.id },
    venue: result.venue,
    source: result.source,
    minAmountOutRaw: result.minAmountOutRaw,
    amountOutRaw: result.amountOutRaw,
  }
}

async function save<Record extends SwapRecord>(ctx: AgentWalletContext, record: Record): Promise<Record> {
  const next = { ...record, updatedAt: ctx.now().toISOString() }
  await ctx.storage.transaction([], (tx) => tx.put('swaps', next))
  return next
}

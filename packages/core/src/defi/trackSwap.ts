import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { isAgentWalletError } from '../errors/baseError.js'
import { NotFoundError } from '../errors/errors.js'
import { resumeOperations, runOperation, sleep } from '../operations/backgroundOperations.js'
import { operationError, stepFailed, waitFinal } from '../operations/operationSteps.js'
import type { Principal } from '../principals/types.js'
import { canSee } from '../wallets/findWallet.js'
import type { WalletRecord } from '../wallets/types.js'
import { receivedAmount, runSwap, type SwapInput, type SwapPass } from './swap.js'
import { activeSwapStatuses, type SwapOperation, type SwapRecord, toSwapOperation } from './swapTypes.js'

const retryMs = 2_000

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
  runOperation(ctx, id, (signal) => advanceSwap(ctx, id, signal))
}

/**
 * Picks up swaps a previous process left unfinished (the composition root's reconcile).
 * @example await resumeSwaps(ctx)
 */
export function resumeSwaps(ctx: AgentWalletContext): Promise<void> {
  return resumeOperations(ctx, 'swaps', activeSwapStatuses, (id) => continueSwap(ctx, id))
}

/**
 * Drives a tracked swap to `confirmed` or `failed`: waits for the current step's transaction; an
 * approved allowance is followed by a fresh quote and the swap (which may pause again); a confirmed
 * swap records what the wallet received. Each submit is replay-safe (`swap:{id}:{step}`).
 */
async function advanceSwap(ctx: AgentWalletContext, id: string, signal: AbortSignal): Promise<void> {
  let record = await ctx.storage.get('swaps', id)
  while (record && activeSwapStatuses.includes(record.status) && !signal.aborted) {
    try {
      const done = await waitFinal(ctx, record.transactions[record.step]!, signal)
      if (!done) return
      if (done.status !== 'confirmed') throw stepFailed('swap', record.step, done)
      const chain = ctx.chains.get(record.chain)
      if (record.step === 'swap') {
        const received = await receivedAmount(chain, record.toToken, record.walletAddress, done)
        record = await save(ctx, {
          ...record,
          status: 'confirmed',
          approvalId: undefined,
          amountOutRaw: received.toString(),
        })
        return
      }
      const wallet = await ctx.storage.get('wallets', record.walletId)
      if (!wallet) throw new NotFoundError('Wallet', { details: { id: record.walletId } })
      const principal: Principal = { tenantId: record.tenantId, ...record.requestedBy }
      if (record.status !== 'swapping')
        record = await save(ctx, { ...record, status: 'swapping', approvalId: undefined })
      const next = stepOf(await runSwap(ctx, principal, wallet, chain, record.request, record.id))
      const transactions = {
        allowance: next.transactions.allowance ?? record.transactions.allowance,
        swap: next.transactions.swap,
      }
      record = await save(ctx, { ...record, ...next, transactions })
    } catch (error) {
      if (isAgentWalletError(error) && error.code === 'chain_unavailable') {
        await sleep(retryMs, signal)
        record = await ctx.storage.get('swaps', id)
        continue
      }
      await save(ctx, { ...record, status: 'failed', approvalId: undefined, error: operationError(error) })
      return
    }
  }
}

/** The record fields a pass's answer sets: where it stopped, or what it received. */
function stepOf(
  result: SwapPass,
): Pick<
  SwapRecord,
  'status' | 'step' | 'approvalId' | 'transactions' | 'venue' | 'source' | 'minAmountOutRaw' | 'amountOutRaw'
> {
  const transactions = { allowance: result.allowanceTransaction?.id, swap: result.transaction?.id }
  const swapSent = result.transaction !== undefined
  return {
    status: result.status === 'confirmed' ? 'confirmed' : 'awaiting_approval',
    step: swapSent ? 'swap' : 'allowance',
    approvalId: result.approval?.id,
    transactions,
    // The venue is known once the swap itself is built (an approved allowance quotes again).
    venue: swapSent ? result.venue : undefined,
    source: swapSent ? result.source : undefined,
    minAmountOutRaw: swapSent ? result.minAmountOutRaw : undefined,
    amountOutRaw: result.amountOutRaw,
  }
}

async function save(ctx: AgentWalletContext, record: SwapRecord): Promise<SwapRecord> {
  const next = { ...record, updatedAt: ctx.now().toISOString() }
  await ctx.storage.transaction([], (tx) => tx.put('swaps', next))
  return next
}

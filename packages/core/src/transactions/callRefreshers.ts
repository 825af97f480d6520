import type { Hex } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import type { TransactionRecord } from './types.js'

/**
 * New calldata for a stored transaction about to be signed later than it was built, or undefined
 * when the transaction is not one the refresher knows, or needs nothing new.
 */
export type CallRefresher = (
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: TransactionRecord,
) => Promise<Hex | undefined>

// Keyed by context: the steps of each composition root register theirs (the money path sits below
// the operations that know what their calls carry, and imports none of them).
const byContext = new WeakMap<AgentWalletContext, CallRefresher[]>()

/**
 * Adds a refresher `refreshCall` asks for this context's transactions (a step's declaration).
 * @example registerCallRefresher(ctx, renewSwapDeadline)
 */
export function registerCallRefresher(ctx: AgentWalletContext, refresher: CallRefresher): void {
  const refreshers = byContext.get(ctx) ?? []
  if (!refreshers.includes(refresher)) refreshers.push(refresher)
  byContext.set(ctx, refreshers)
}

/**
 * The refreshers registered for this context, in registration order.
 * @example for (const refresher of callRefreshersOf(ctx)) await refresher(ctx, chain, record)
 */
export function callRefreshersOf(ctx: AgentWalletContext): readonly CallRefresher[] {
  return byContext.get(ctx) ?? []
}

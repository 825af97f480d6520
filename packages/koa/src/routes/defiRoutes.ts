import {
  type ApprovalRecord,
  pricesSchema,
  quoteSwapSchema,
  stakeSchema,
  swapSchema,
  type TransactionRecord,
  toTransactionView,
} from '@agentwallet/core'
import { defineRoute } from './defineRoute.js'

/** Swaps (best of every venue), a quote dry run, staking and prices. */
export const defiRoutes = [
  defineRoute({
    method: 'post',
    path: '/defi/swap',
    summary:
      'Swap exactly `amount` of fromToken for toToken at the best venue (allowance, slippage bound and deadline handled; 202 with a swapId when a step waits for approval: the rest runs once approved)',
    body: swapSchema,
    idempotent: true,
    handler: async ({ session, body, idempotencyKey }) => {
      const { transaction, allowanceTransaction, approval, ...swap } = await session.swap(body, {
        idempotencyKey,
      })
      return paused(approval, {
        success: true,
        ...swap,
        allowanceTransaction: view(allowanceTransaction),
        transaction: view(transaction),
        hash: transaction?.hash ?? null,
      })
    },
  }),
  defineRoute({
    method: 'get',
    path: '/defi/swap/:id',
    summary:
      'A swap that paused for approval (swp_…, the swapId of a 202): status, the step it is on, the approval it waits for, what it received',
    handler: async ({ session, params }) => ({
      body: { success: true, swap: await session.getSwap(params.id!) },
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/defi/quote',
    summary: 'Quote a swap on every venue without sending anything (dry run of /defi/swap)',
    query: quoteSwapSchema,
    handler: async ({ session, query }) => ({ body: { success: true, ...(await session.quoteSwap(query)) } }),
  }),
  defineRoute({
    method: 'post',
    path: '/defi/stake',
    summary: 'Stake native coin with a liquid-staking protocol (lido); reports what was received',
    body: stakeSchema,
    idempotent: true,
    handler: async ({ session, body, idempotencyKey }) => {
      const { transaction, approval, ...stake } = await session.stake(body, { idempotencyKey })
      return paused(approval, {
        success: true,
        ...stake,
        transaction: view(transaction),
        hash: transaction.hash ?? null,
      })
    },
  }),
  defineRoute({
    method: 'get',
    path: '/defi/prices',
    summary:
      'USD prices from Chainlink-style feeds (DEX mid-price where no feed); per-token errors, never a made-up price',
    query: pricesSchema,
    handler: async ({ session, query }) => ({ body: { success: true, ...(await session.getPrices(query)) } }),
  }),
]

function view(record: TransactionRecord | undefined) {
  return record ? toTransactionView(record) : null
}

/** 202 with the approval when a step waits for a human, as a paused send answers. */
function paused(approval: ApprovalRecord | undefined, body: Record<string, unknown>) {
  if (!approval) return { body }
  const { id, expiresAt, ruleId, reason } = approval
  return { status: 202, body: { ...body, approval: { id, expiresAt, ruleId: ruleId ?? null, reason } } }
}

import { pricesSchema, quoteSwapSchema, stakeSchema, swapSchema } from '@agentwallet/core'
import { z } from 'zod'
import type { AgentWalletBackend } from '../backend/agentWalletBackend.js'
import { type AgentWalletTool, defineTool } from './defineTool.js'
import { idempotencyKeySchema } from './idempotencyKeySchema.js'

/**
 * DeFi: quote and execute swaps at the best venue, stake native coin, read prices.
 * @example const [quote, swap, getSwap, stake, prices] = defiTools(backend)
 */
export function defiTools(backend: AgentWalletBackend): AgentWalletTool[] {
  return [
    defineTool({
      name: 'quote_swap',
      title: 'Quote swap',
      description:
        'Dry run of a swap: what selling `amount` of fromToken (symbol like "ETH"/"USDC" or an address) gives in toToken on every venue, and the best. Nothing is sent.',
      inputSchema: quoteSwapSchema,
      readOnly: true,
      run: (parameters) => backend.quoteSwap(parameters),
    }),
    defineTool({
      name: 'swap',
      title: 'Swap',
      description:
        'Swap exactly `amount` of fromToken for toToken at the best venue, from this agent\'s wallet (`wallet` when it has several), bounded by slippageBps (default 50 = 0.5%) or minAmountOut. Passes the wallet\'s policy like a send: policy_blocked, or status "pending_approval" with how a human approves and a swapId (the rest runs once approved; follow it with get_swap). Resolves once mined with what was received.',
      inputSchema: swapSchema.extend({ idempotencyKey: idempotencyKeySchema }),
      readOnly: false,
      run: ({ idempotencyKey, ...parameters }) => backend.swap(parameters, { idempotencyKey }),
    }),
    defineTool({
      name: 'get_swap',
      title: 'Swap status',
      description:
        'A swap that paused for approval, by its swapId: status (awaiting_approval → swapping → confirmed | failed), the step it is on (allowance, swap), the approval it waits for, and once confirmed what was received (amountOutRaw).',
      inputSchema: z.strictObject({ swapId: z.string().min(1).max(100) }),
      readOnly: true,
      run: ({ swapId }) => backend.getSwap(swapId),
    }),
    defineTool({
      name: 'stake',
      title: 'Stake',
      description:
        'Stake `amount` of the native coin with a liquid-staking protocol ("lido") from this agent\'s wallet, through its policy. Resolves once mined with the staking token received, or "pending_approval".',
      inputSchema: stakeSchema.extend({ idempotencyKey: idempotencyKeySchema }),
      readOnly: false,
      run: ({ idempotencyKey, ...parameters }) => backend.stake(parameters, { idempotencyKey }),
    }),
    defineTool({
      name: 'get_prices',
      title: 'Token prices',
      description:
        'USD prices of tokens (symbols or addresses) from price feeds, or DEX mid-price where no feed exists; a token without a price carries an error, never a made-up number.',
      inputSchema: pricesSchema,
      readOnly: true,
      run: (parameters) => backend.getPrices(parameters),
    }),
  ]
}

import * as z from 'zod/mini'
import { chainErrors, defineContracts, intentErrors } from '../schemas/defineContract.js'
import {
  pricesAnswerSchema,
  pricesSchema,
  quoteAnswerSchema,
  quoteSwapSchema,
  stakeAnswerSchema,
  stakeSchema,
  swapAnswerSchema,
  swapOperationSchema,
  swapSchema,
} from './defiSchemas.js'

const swapErrors = [
  'not_found',
  'no_route',
  'slippage_exceeded',
  'quote_source_unavailable',
  'unsupported_protocol',
] as const

/** Swaps (best of every venue), a quote dry run, staking and prices. (contracts: what each operation takes, answers and may fail with) */
export const defiContract = defineContracts({
  swap: {
    summary:
      'Swap exactly `amount` of fromToken for toToken at the best venue (allowance, slippage bound and deadline handled; 202 with a swapId when a step waits for approval: the rest runs once approved)',
    description:
      'Swap exactly `amount` of fromToken for toToken from one of this caller’s wallets at the best venue quoted (Uniswap V2/V3 and configured aggregators), with a slippage bound (default 0.5%) and a deadline; an ERC-20 allowance is raised first when short. Answers once mined with what the wallet received, or status "pending_approval" with a swapId when a step waits for a human (it then finishes by itself; follow it with get_swap). Passes the policy engine.',
    input: swapSchema,
    output: swapAnswerSchema,
    roles: ['agent', 'admin'],
    idempotent: true,
    movesValue: true,
    http: { method: 'post', path: '/defi/swap', status: 200, whenPaused: 202 },
    errors: ['wallet_kind_unsupported', ...swapErrors, 'transaction_failed', ...intentErrors],
    tool: true,
  },
  getSwap: {
    summary:
      'A swap that paused for approval (swp_…, the swapId of a 202): status, the step it is on, the approval it waits for, what it received',
    description:
      'A swap that paused for approval, by its swapId: its status (awaiting_approval, swapping, confirmed, failed), the step it is on and, once confirmed, what the wallet received.',
    input: z.strictObject({
      swapId: z.string().check(z.minLength(1), z.maxLength(100), z.describe('The swap id (swp_…)')),
    }),
    output: z.object({ swap: swapOperationSchema }),
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/defi/swap/:swapId', status: 200 },
    errors: ['not_found'],
    tool: true,
  },
  quoteSwap: {
    summary: 'Quote a swap on every venue without sending anything (dry run of /defi/swap)',
    description:
      'Quote selling exactly `amount` of fromToken for toToken on every venue, without sending anything: the best quote and each venue’s.',
    input: quoteSwapSchema,
    output: quoteAnswerSchema,
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/defi/quote', status: 200 },
    errors: [...swapErrors, ...chainErrors],
    tool: true,
  },
  stake: {
    summary: 'Stake native coin with a liquid-staking protocol (lido); reports what was received',
    description:
      'Stake native coin from one of this caller’s wallets with a liquid-staking protocol ("lido"). Answers once mined with the liquid-staking token received, or status "pending_approval" when a human must approve it first. Passes the policy engine.',
    input: stakeSchema,
    output: stakeAnswerSchema,
    roles: ['agent', 'admin'],
    idempotent: true,
    movesValue: true,
    http: { method: 'post', path: '/defi/stake', status: 200, whenPaused: 202 },
    errors: [
      'wallet_kind_unsupported',
      'not_found',
      'unsupported_protocol',
      'transaction_failed',
      ...intentErrors,
    ],
    tool: true,
  },
  getPrices: {
    summary:
      'USD prices from Chainlink-style feeds (DEX mid-price where no feed); per-token errors, never a made-up price',
    description:
      'USD prices of tokens (symbols or addresses) from Chainlink-style feeds, or a DEX mid-price where no feed exists; a token that cannot be priced gets an error of its own, never a made-up price.',
    input: pricesSchema,
    output: pricesAnswerSchema,
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/defi/prices', status: 200 },
    errors: [...chainErrors],
    tool: true,
  },
})

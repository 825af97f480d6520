import type { Address } from 'viem'
import type { z } from 'zod'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError, isAgentWalletError } from '../errors/baseError.js'
import { ValidationError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { formatAmount, parseAmount } from '../utils/amounts.js'
import { actingWallet } from '../wallets/actingWallet.js'
import type { WalletRecord } from '../wallets/types.js'
import type { quoteAnswerSchema, quoteSwapSchema, tokenViewSchema } from './defiSchemas.js'
import type { QuoteRequest, SwapQuote } from './quoteSource.js'
import { resolveSwapToken, type SwapToken } from './resolveSwapToken.js'
import { uniswapV2QuoteSource } from './uniswapV2QuoteSource.js'
import { uniswapV3QuoteSource } from './uniswapV3QuoteSource.js'

/** Default slippage bound of a swap: 0.5%. */
export const defaultSlippageBps = 50

export type QuoteSwapReturnType = z.infer<typeof quoteAnswerSchema>
/** One venue's quote as the API shows it. */
export type QuoteView = QuoteSwapReturnType['best']
export type TokenView = z.infer<typeof tokenViewSchema>

/**
 * Quotes selling exactly `amount` of `fromToken` on every configured venue (the address book's
 * Uniswap V2 routers and V3 quoters, and the operator's quote sources); nothing is sent. No venue → `no_route`.
 * @example const { best, quotes } = await quoteSwap(ctx, principal, { fromToken: 'ETH', toToken: 'USDC', amount: '1' })
 */
export async function quoteSwap(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof quoteSwapSchema>,
): Promise<QuoteSwapReturnType> {
  const wallet = input.wallet
    ? await actingWallet(ctx, principal, input.wallet)
    : await optionalWallet(ctx, principal)
  const chain = ctx.chains.get(input.chain ?? wallet?.chain ?? ctx.chains.defaultChain)
  const plan = await planSwap(ctx, chain, input, wallet?.address, defaultSlippageBps)
  return quoteView(chain, plan)
}

/** What a swap is about to do: resolved tokens, the exact input, every quote, the best first. */
export type SwapPlan = {
  tokenIn: SwapToken
  tokenOut: SwapToken
  amountIn: bigint
  quotes: SwapQuote[]
  best: SwapQuote
  unavailable: QuoteSwapReturnType['unavailable']
}

/** Resolves tokens and amount and asks every source; shared by `quoteSwap` and `swap`. */
export async function planSwap(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  input: { fromToken: string; toToken: string; amount: string },
  taker: Address | undefined,
  slippageBps: number,
): Promise<SwapPlan> {
  const [tokenIn, tokenOut] = await Promise.all([
    resolveSwapToken(chain, input.fromToken, 'fromToken'),
    resolveSwapToken(chain, input.toToken, 'toToken'),
  ])
  if (tokenIn.route.toLowerCase() === tokenOut.route.toLowerCase()) {
    const message = 'fromToken and toToken are the same asset (wrapping and unwrapping are not swaps)'
    throw new ValidationError(message, { details: { issues: [{ path: 'toToken', message }] } })
  }
  const amountIn = parseAmount(input.amount, tokenIn.decimals)
  if (amountIn === 0n) {
    const message = 'amount must be greater than zero'
    throw new ValidationError(message, { details: { issues: [{ path: 'amount', message }] } })
  }
  const request: QuoteRequest = { chain, tokenIn, tokenOut, amountIn, taker, slippageBps }
  const sources = [uniswapV2QuoteSource, uniswapV3QuoteSource, ...(ctx.options.quoteSources ?? [])]
  const answers = await Promise.allSettled(sources.map((source) => source.quote(request)))
  const quotes: SwapQuote[] = []
  const unavailable: SwapPlan['unavailable'] = []
  answers.forEach((answer, index) => {
    const source = sources[index]!.name
    if (answer.status === 'fulfilled') quotes.push(...answer.value.filter((quote) => quote.amountOut > 0n))
    else unavailable.push({ source, ...describe(answer.reason) })
  })
  quotes.sort((a, b) => (a.amountOut === b.amountOut ? 0 : a.amountOut > b.amountOut ? -1 : 1))
  const best = quotes[0]
  const unreachable = answers.find(
    (answer) =>
      answer.status === 'rejected' &&
      answer.reason instanceof BaseError &&
      answer.reason.code === 'chain_unavailable',
  )
  if (!best && unreachable?.status === 'rejected') throw unreachable.reason
  if (!best) {
    throw new BaseError(
      'no_route',
      `No venue quotes ${tokenIn.symbol} → ${tokenOut.symbol} on ${chain.name}`,
      {
        details: { chain: chain.name, fromToken: tokenIn.address, toToken: tokenOut.address, unavailable },
      },
    )
  }
  return { tokenIn, tokenOut, amountIn, quotes, best, unavailable }
}

/** The public view of a plan's quotes. */
export function quoteView(chain: ChainHandle, plan: SwapPlan): QuoteSwapReturnType {
  const view = (quote: SwapQuote): QuoteView => ({
    source: quote.source,
    venue: quote.venue,
    amountOut: formatAmount(quote.amountOut, plan.tokenOut.decimals),
    amountOutRaw: quote.amountOut.toString(),
    path: quote.path ? [...quote.path] : null,
    fees: quote.fees ? [...quote.fees] : null,
  })
  return {
    chain: chain.name,
    fromToken: tokenView(plan.tokenIn),
    toToken: tokenView(plan.tokenOut),
    amountIn: formatAmount(plan.amountIn, plan.tokenIn.decimals),
    amountInRaw: plan.amountIn.toString(),
    best: view(plan.best),
    quotes: plan.quotes.map(view),
    unavailable: plan.unavailable,
  }
}

export function tokenView({ address, symbol, decimals }: SwapToken): TokenView {
  return { address, symbol, decimals }
}

async function optionalWallet(
  ctx: AgentWalletContext,
  principal: Principal,
): Promise<WalletRecord | undefined> {
  // A quote needs no wallet; the caller's only wallet, when there is one, is the taker. Only "none or
  // several" means no taker: a storage failure is not "no wallet".
  return actingWallet(ctx, principal, undefined).catch((error: unknown) => {
    if (isAgentWalletError(error, 'validation_failed')) return undefined
    throw error
  })
}

function describe(error: unknown): { code: string; message: string } {
  if (error instanceof BaseError) return { code: error.code, message: error.shortMessage }
  return { code: 'internal', message: 'The quote source failed' }
}

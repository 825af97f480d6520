import { type Address, getAddress, type Hex, isAddressEqual } from 'viem'
import { z } from 'zod'
import { BaseError } from '../errors/baseError.js'
import type { QuoteRequest, QuoteSource, SwapQuote } from './quoteSource.js'
import { nativeTokenAddress } from './resolveSwapToken.js'

export type ZeroExQuoteSourceOptions = {
  /** The operator's API key, sent as `0x-api-key`; never logged nor put in an error. */
  apiKey: string
  /** Base URL of a 0x Swap API v2 compatible service. Default `https://api.0x.org`. */
  baseUrl?: string | undefined
  /** Shown as `source` and `venue` of its quotes. Default `0x`. */
  name?: string | undefined
  /** Per-request timeout. Default 5 s: a slow aggregator must not hold a swap's quote round. */
  timeoutMs?: number | undefined
  /** Default: the global fetch. */
  fetch?: typeof fetch | undefined
}

const amount = z.string().regex(/^\d+$/).transform(BigInt)
const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .transform((value) => getAddress(value))
const noLiquidity = z.object({ liquidityAvailable: z.literal(false) })
const price = z.object({
  liquidityAvailable: z.literal(true),
  buyAmount: amount,
  minBuyAmount: amount.optional(),
  issues: z.object({ allowance: z.object({ spender: address }).nullish() }).nullish(),
  route: z.object({ fills: z.array(z.object({ source: z.string() })) }).nullish(),
})
const firmQuote = price.extend({
  minBuyAmount: amount,
  transaction: z.object({
    to: address,
    data: z.string().regex(/^0x([0-9a-fA-F]{2})*$/),
    value: amount,
  }),
})
const priceAnswer = z.union([noLiquidity, price])
const quoteAnswer = z.union([noLiquidity, firmQuote])

/**
 * A quote source for a 0x Swap API v2 compatible aggregator (`/swap/allowance-holder/price` without a
 * taker, `/swap/allowance-holder/quote` with one), configured by the operator:
 * `createAgentWallet({ quoteSources: [zeroExQuoteSource({ apiKey })] })`, or on the server
 * `AGENTWALLET_0X_API_KEY` (and `AGENTWALLET_0X_URL`). Its answers are validated, not trusted: the
 * calldata must pay out at least `amountOutMin` (its `minBuyAmount`), the value must be exactly
 * the native amount sold, and the spender gets an exact allowance, never an unlimited one. The
 * aggregator's calldata is fixed by the aggregator: when the swap needs a tighter bound than the
 * quoted one, it asks again with that slippage and refuses (`slippage_exceeded`) if the new quote
 * still guarantees less.
 * @example createAgentWallet({ chains, quoteSources: [zeroExQuoteSource({ apiKey: process.env.ZEROEX_KEY! })] })
 */
export function zeroExQuoteSource(options: ZeroExQuoteSourceOptions): QuoteSource {
  const name = options.name ?? '0x'
  const baseUrl = (options.baseUrl ?? 'https://api.0x.org').replace(/\/$/, '')
  const doFetch = options.fetch ?? fetch

  /** A firm quote (with calldata) for a taker, or an indicative price without one. */
  async function askQuote(request: QuoteRequest, slippageBps: number) {
    return parseAnswer(quoteAnswer, await ask('quote', request, slippageBps))
  }
  async function askPrice(request: QuoteRequest, slippageBps: number) {
    return parseAnswer(priceAnswer, await ask('price', request, slippageBps))
  }
  function parseAnswer<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
    const parsed = schema.safeParse(body)
    if (!parsed.success) throw unavailable(name, `${name} answered in an unexpected shape`)
    return parsed.data
  }

  async function ask(
    endpoint: 'price' | 'quote',
    request: QuoteRequest,
    slippageBps: number,
  ): Promise<unknown> {
    const url = new URL(`${baseUrl}/swap/allowance-holder/${endpoint}`)
    const query = {
      chainId: String(request.chain.chainId),
      sellToken: tokenAddress(request.tokenIn),
      buyToken: tokenAddress(request.tokenOut),
      sellAmount: request.amountIn.toString(),
      slippageBps: String(slippageBps),
      ...(request.taker ? { taker: request.taker } : {}),
    }
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value)
    let response: Response
    try {
      response = await doFetch(url, {
        headers: { '0x-api-key': options.apiKey, '0x-version': 'v2', accept: 'application/json' },
        signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
      })
    } catch (error) {
      throw unavailable(name, `${name} did not answer`, { cause: error })
    }
    const body: unknown = await response.json().catch(() => undefined)
    if (!response.ok) throw unavailable(name, `${name} answered HTTP ${response.status}`)
    return body
  }

  function toQuote(
    request: QuoteRequest,
    answer: z.infer<typeof price> | z.infer<typeof firmQuote>,
  ): SwapQuote {
    const firm = 'transaction' in answer ? answer : undefined
    const spender = answer.issues?.allowance?.spender ?? firm?.transaction.to
    const venues = [...new Set(answer.route?.fills.map((fill) => fill.source) ?? [])]
    return {
      source: name,
      venue: venues.length > 0 ? `${name}: ${venues.join(' + ')}` : name,
      amountOut: answer.buyAmount,
      // Without a taker the price answer names no spender; such a quote is never executed.
      spender: spender ?? '0x0000000000000000000000000000000000000000',
      trustedSpender: false,
      async buildCall({ recipient, amountOutMin }) {
        if (!request.taker || !isAddressEqual(recipient, request.taker))
          throw new BaseError('validation_failed', `${name} pays only the taker it quoted for`)
        let quote = firm
        if (!quote || quote.minBuyAmount < amountOutMin) {
          // Ask again with the slippage that `amountOutMin` leaves from the quoted amount.
          const slippageBps = Number(((answer.buyAmount - amountOutMin) * 10_000n) / answer.buyAmount)
          const again = await askQuote(request, Math.max(0, slippageBps))
          if (!again.liquidityAvailable || again.minBuyAmount < amountOutMin) {
            throw new BaseError('slippage_exceeded', `${name} no longer guarantees the minimum amount out`, {
              details: {
                source: name,
                minAmountOut: amountOutMin.toString(),
                guaranteed: again.liquidityAvailable ? again.minBuyAmount.toString() : '0',
              },
            })
          }
          quote = again
        }
        const value = request.tokenIn.address === 'native' ? request.amountIn : 0n
        if (quote.transaction.value !== value)
          throw unavailable(name, `${name} asked for a value other than the amount sold`)
        return { to: quote.transaction.to, value, data: quote.transaction.data as Hex }
      },
    }
  }

  return {
    name,
    async quote(request) {
      const answer = request.taker
        ? await askQuote(request, request.slippageBps)
        : await askPrice(request, request.slippageBps)
      return answer.liquidityAvailable ? [toQuote(request, answer)] : []
    },
  }
}

function tokenAddress(token: QuoteRequest['tokenIn']): Address {
  return token.address === 'native' ? nativeTokenAddress : token.address
}

function unavailable(name: string, message: string, options: { cause?: unknown } = {}): BaseError {
  return new BaseError('quote_source_unavailable', message, { details: { source: name }, ...options })
}

import type { Address, Hex } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { SwapToken } from './resolveSwapToken.js'

/** What every quote source is asked: sell exactly `amountIn` of `tokenIn` for `tokenOut`. */
export type QuoteRequest = {
  chain: ChainHandle
  tokenIn: SwapToken
  tokenOut: SwapToken
  amountIn: bigint
  /** The wallet that would swap (aggregator APIs want it); absent for anonymous quotes. */
  taker?: Address | undefined
  slippageBps: number
}

/** The EVM call that performs a quoted swap. */
export type SwapCall = { to: Address; value: bigint; data: Hex }

/** One venue's answer. `buildCall` must make the swap revert on chain below `amountOutMin`. */
export type SwapQuote = {
  /** The source that produced it (`uniswap-v2`, `uniswap-v3`, or an operator's aggregator). */
  source: string
  /** The venue that fills it (router name, or the aggregator's label). */
  venue: string
  amountOut: bigint
  /** The ERC-20 path, where the source routes through one. */
  path?: readonly Address[] | undefined
  /** The fee tier of each hop of `path` in hundredths of a basis point (Uniswap V3: 500 = 0.05%). */
  fees?: readonly number[] | undefined
  /** The contract that pulls `tokenIn` (the allowance target); for a native sell, unused. */
  spender: Address
  /**
   * True when `spender` is a contract of the chain's address book. Informational: no spender gets
   * more allowance than the swap spends (`swap` approves exactly `amountIn`).
   */
  trustedSpender: boolean
  buildCall(parameters: {
    recipient: Address
    amountOutMin: bigint
    deadline: bigint
  }): SwapCall | Promise<SwapCall>
}

/**
 * A pluggable quote source, e.g. a 0x-style aggregator API configured by the operator
 * (`createAgentWallet({ quoteSources: [myZeroExSource] })`). It returns no quote (an empty list)
 * for pairs it cannot fill; a thrown error marks the source unavailable for this request.
 * @example const source: QuoteSource = { name: '0x', quote: async (request) => [...] }
 */
export interface QuoteSource {
  readonly name: string
  quote(request: QuoteRequest): Promise<readonly SwapQuote[]>
}

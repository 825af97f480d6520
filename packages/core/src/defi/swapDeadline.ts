import { decodeFunctionData, encodeFunctionData, type Hex, isAddressEqual } from 'viem'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import { uniswapV2RouterAbi } from '../chain/uniswapV2Abi.js'
import { swapRouter02Abi } from '../chain/uniswapV3Abi.js'
import type { TransactionRecord } from '../transactions/types.js'

/** How long a signed swap stays valid on chain, from the latest block's time. */
const deadlineSeconds = 20n * 60n
/** A deadline closer than this is renewed before a waiting swap is signed. */
const renewWithin = 60n

/**
 * The deadline a swap signed now carries: the latest block's time + 20 min (block time, not the
 * wall clock: a devnet's blocks run ahead of it).
 * @example const deadline = await swapDeadline(chain)
 */
export async function swapDeadline(chain: ChainHandle): Promise<bigint> {
  return (await latestBlockTime(chain)) + deadlineSeconds
}

/**
 * New bytes for a swap that waited (for an approver, or for a restart) until its deadline is near or
 * past: the same router call with a fresh deadline, and the same `amountOutMin`, so the approved
 * bound still holds (a worse price reverts at gas estimation and nothing is signed). Only calls to
 * the address book's Uniswap V2 routers and V3 SwapRouter02 are rebuilt; an operator's quote source
 * built calldata core cannot read, so those are sent as approved. `undefined`: nothing to change.
 * @example const data = await renewSwapDeadline(chain, record)
 */
export async function renewSwapDeadline(
  chain: ChainHandle,
  record: TransactionRecord,
): Promise<Hex | undefined> {
  const call = record.kind === 'swap' ? routerCall(chain, record.call) : undefined
  if (!call) return undefined
  const fresh = await renewed(chain, call.deadline)
  return fresh === undefined ? undefined : call.withDeadline(fresh)
}

/** A swap call to an address-book router: its deadline, and how to encode it with another. */
function routerCall(
  chain: ChainHandle,
  { to, data }: TransactionRecord['call'],
): { deadline: bigint; withDeadline(deadline: bigint): Hex } | undefined {
  if (!data) return undefined
  const { uniswapV2 = [], uniswapV3 = [] } = chain.contracts
  if (uniswapV3.some((venue) => isAddressEqual(venue.router, to))) {
    const call = decodeFunctionData({ abi: swapRouter02Abi, data })
    if (call.functionName !== 'multicall') return undefined
    const [deadline, calls] = call.args
    return {
      deadline,
      withDeadline: (fresh) =>
        encodeFunctionData({ abi: swapRouter02Abi, functionName: 'multicall', args: [fresh, calls] }),
    }
  }
  if (!uniswapV2.some((venue) => isAddressEqual(venue.router, to))) return undefined
  const call = decodeFunctionData({ abi: uniswapV2RouterAbi, data })
  if (call.functionName === 'swapExactETHForTokens') {
    const [amountOutMin, path, recipient, deadline] = call.args
    return {
      deadline,
      withDeadline: (fresh) =>
        encodeFunctionData({
          abi: uniswapV2RouterAbi,
          functionName: call.functionName,
          args: [amountOutMin, path, recipient, fresh],
        }),
    }
  }
  if (call.functionName === 'swapExactTokensForETH' || call.functionName === 'swapExactTokensForTokens') {
    const [amountIn, amountOutMin, path, recipient, deadline] = call.args
    return {
      deadline,
      withDeadline: (fresh) =>
        encodeFunctionData({
          abi: uniswapV2RouterAbi,
          functionName: call.functionName,
          args: [amountIn, amountOutMin, path, recipient, fresh],
        }),
    }
  }
  return undefined
}

/** A fresh deadline when `deadline` is past or within a minute of the latest block; else none. */
async function renewed(chain: ChainHandle, deadline: bigint): Promise<bigint | undefined> {
  const latest = await latestBlockTime(chain)
  return deadline < latest + renewWithin ? latest + deadlineSeconds : undefined
}

async function latestBlockTime(chain: ChainHandle): Promise<bigint> {
  try {
    return (await chain.client.getBlock({ blockTag: 'latest' })).timestamp
  } catch (error) {
    throw toChainError(error, chain.name)
  }
}

import { formatUnits } from 'viem'
import type { z } from 'zod'
import { toChainError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { parseInput } from '../schemas/parseInput.js'
import { findWallet } from '../wallets/findWallet.js'
import { buildDraft } from './buildDraft.js'
import { sendSchema } from './sendSchema.js'

export type EstimateGasParameters = z.input<typeof sendSchema> & { from: string }

export type EstimateGasReturnType = {
  chain: string
  gasLimit: string
  maxFeePerGas: string
  maxPriorityFeePerGas: string
  /** gasLimit × maxFeePerGas, the most the tx can cost in gas, in ETH and wei. */
  maxCost: string
  maxCostWei: string
}

/**
 * A dry run of a send: gas limit and EIP-1559 fees, without policy, signing or broadcast.
 * @example await estimateGas(ctx, principal, { from, to, value: '0.1' })
 */
export async function estimateGas(
  ctx: AgentWalletContext,
  principal: Principal,
  parameters: EstimateGasParameters,
): Promise<EstimateGasReturnType> {
  const { from, ...rest } = parameters
  const send = parseInput(sendSchema, rest)
  const wallet = await findWallet(ctx, principal, from)
  const chain = ctx.chains.get(send.chain ?? wallet.chain)
  const draft = await buildDraft(chain, send)
  try {
    const [gas, fees] = await Promise.all([
      chain.client.estimateGas({
        account: wallet.address,
        to: draft.call.to,
        value: draft.call.value,
        data: draft.call.data,
      }),
      chain.client.estimateFeesPerGas(),
    ])
    const maxCost = gas * fees.maxFeePerGas
    return {
      chain: chain.name,
      gasLimit: gas.toString(),
      maxFeePerGas: fees.maxFeePerGas.toString(),
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
      maxCost: formatUnits(maxCost, 18),
      maxCostWei: maxCost.toString(),
    }
  } catch (error) {
    throw toChainError(error, chain.name)
  }
}

import { formatUnits } from 'viem'
import { z } from 'zod'
import { toChainError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import { buildDraft } from '../intents/buildDraft.js'
import type { Principal } from '../principals/types.js'
import { out } from '../schemas/out.js'
import { findWallet } from '../wallets/findWallet.js'
import type { SendInput } from './sendSchema.js'

const estimateFields = {
  chain: z.string(),
  gasLimit: out.baseUnits,
  maxFeePerGas: out.baseUnits.describe('wei per gas'),
  maxPriorityFeePerGas: out.baseUnits.describe('wei per gas'),
  /** gasLimit × maxFeePerGas, the most the tx can cost in gas, in ETH and wei. */
  maxCost: out.decimal.describe('The most the transaction can cost in gas, in ETH'),
  maxCostWei: out.baseUnits,
}

/** The estimate, and the same figures again under `estimate` (the reference clients read them there). */
export const estimateGasAnswerSchema = z.object({ ...estimateFields, estimate: z.object(estimateFields) })
export type EstimateGasReturnType = z.infer<typeof estimateGasAnswerSchema>

/**
 * A dry run of a send: gas limit and EIP-1559 fees, without policy, signing or broadcast.
 * @example await estimateGas(ctx, principal, { wallet, to, value: '0.1' })
 */
export async function estimateGas(
  ctx: AgentWalletContext,
  principal: Principal,
  input: SendInput,
): Promise<EstimateGasReturnType> {
  const { wallet: address, ...send } = input
  const wallet = await findWallet(ctx, principal, address)
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
    const estimate = {
      chain: chain.name,
      gasLimit: gas.toString(),
      maxFeePerGas: fees.maxFeePerGas.toString(),
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
      maxCost: formatUnits(maxCost, 18),
      maxCostWei: maxCost.toString(),
    }
    return { ...estimate, estimate }
  } catch (error) {
    throw toChainError(error, chain.name)
  }
}

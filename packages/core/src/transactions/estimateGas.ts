import { formatUnits } from 'viem'
import { toChainError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import { buildDraft } from '../intents/buildDraft.js'
import type { Principal } from '../principals/types.js'
import { findWallet } from '../wallets/findWallet.js'
import type { SendInput } from './sendSchema.js'
import type { EstimateGasReturnType } from './transactionSchemas.js'

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

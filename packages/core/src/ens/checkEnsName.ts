import type { z } from 'zod'
import { ensControllerAbi } from '../chain/ensAbis.js'
import { toChainError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import { formatAmount } from '../utils/amounts.js'
import { requireEnsContract } from './ensContractsOf.js'
import { type checkEnsSchema, durationOf, type ensCheckAnswerSchema } from './ensSchemas.js'
import { parseEthName } from './parseEnsName.js'
import { readRentPrice } from './readRentPrice.js'

export type CheckEnsNameReturnType = z.infer<typeof ensCheckAnswerSchema>

/**
 * Normalizes (ENSIP-15) and validates a `.eth` name, then asks the controller whether it is
 * available and what it costs. Invalid names are `validation_failed`; an RPC failure is
 * `chain_unavailable`, never "available".
 * @example const { available, price } = await checkEnsName(ctx, principal, { name: 'my-agent.eth' })
 */
export async function checkEnsName(
  ctx: Pick<AgentWalletContext, 'chains'>,
  _principal: unknown,
  input: z.output<typeof checkEnsSchema>,
): Promise<CheckEnsNameReturnType> {
  const parsed = parseEthName(input.name)
  const chain = ctx.chains.get(input.chain ?? ctx.chains.defaultChain)
  const controller = requireEnsContract(chain, 'controller')
  const durationSeconds = durationOf(input)
  try {
    const contract = { address: controller, abi: ensControllerAbi } as const
    const [available, price, minAge] = await Promise.all([
      chain.client.readContract({ ...contract, functionName: 'available', args: [parsed.label] }),
      readRentPrice(chain, controller, parsed.label, durationSeconds),
      chain.client.readContract({ ...contract, functionName: 'minCommitmentAge' }),
    ])
    return {
      name: parsed.name,
      label: parsed.label,
      chain: chain.name,
      valid: true,
      available,
      durationSeconds,
      price: {
        wei: price.total.toString(),
        eth: formatAmount(price.total, chain.nativeDecimals),
        baseWei: price.base.toString(),
        premiumWei: price.premium.toString(),
      },
      minCommitmentAge: Number(minAge),
    }
  } catch (error) {
    throw toChainError(error, chain.name, { read: true })
  }
}

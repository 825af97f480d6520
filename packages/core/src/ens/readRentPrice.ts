import type { Address } from 'viem'
import { ensControllerAbi, ensPriceStructControllerAbi } from '../chain/ensAbis.js'
import type { ChainHandle } from '../chain/types.js'

/** Rent for `durationSeconds` in wei (base + premium on current controllers). */
export async function readRentPrice(
  chain: ChainHandle,
  controller: Address,
  label: string,
  durationSeconds: number,
): Promise<{ total: bigint; base: bigint; premium: bigint }> {
  const args = [label, BigInt(durationSeconds)] as const
  if (chain.contracts.ens?.controllerAbi === 'current') {
    const price = await chain.client.readContract({
      address: controller,
      abi: ensPriceStructControllerAbi,
      functionName: 'rentPrice',
      args,
    })
    return { total: price.base + price.premium, base: price.base, premium: price.premium }
  }
  const total = await chain.client.readContract({
    address: controller,
    abi: ensControllerAbi,
    functionName: 'rentPrice',
    args,
  })
  return { total, base: total, premium: 0n }
}

import type { Address, PublicClient } from 'viem'
import type { AccountAbstractionContracts } from '../chain/types.js'
import type { Delegation } from './delegation.js'
import { delegationHash } from './delegationHash.js'
import { periodAllowanceAbi } from './periodAllowanceAbi.js'
import type { SessionDelegations } from './sessionDelegations.js'

/** What a session's periodic allowances still admit in their current period, read from the enforcers. */
export type AllowancesLeft = {
  native?: bigint | undefined
  tokens: readonly { token: Address; available: bigint }[]
}

/**
 * Reads from the chain what each periodic allowance of `delegations` may still move now (what the
 * dashboard shows beside a session key's limits): the enforcers' own `getAvailableAmount`, so the
 * figure is the one the next redemption will be held to.
 * @example const left = await readAllowancesLeft(client, contracts, delegations)
 */
export async function readAllowancesLeft(
  client: PublicClient,
  contracts: Pick<AccountAbstractionContracts, 'delegationManager' | 'enforcers'>,
  delegations: SessionDelegations,
): Promise<AllowancesLeft> {
  const available = async (delegation: Delegation, enforcer: Address) => {
    const caveat = delegation.caveats.find((c) => c.enforcer.toLowerCase() === enforcer.toLowerCase())
    if (!caveat) return undefined
    const [amount] = await client.readContract({
      address: enforcer,
      abi: periodAllowanceAbi,
      functionName: 'getAvailableAmount',
      args: [delegationHash(delegation), contracts.delegationManager, caveat.terms],
    })
    return amount
  }
  const native = delegations.calls
    ? await available(delegations.calls, contracts.enforcers.nativeTokenPeriodTransfer)
    : undefined
  const tokens = await Promise.all(
    delegations.transfers.map(async ({ token, delegation }) => ({
      token,
      available: (await available(delegation, contracts.enforcers.erc20PeriodTransfer)) ?? 0n,
    })),
  )
  return { ...(native === undefined ? {} : { native }), tokens }
}

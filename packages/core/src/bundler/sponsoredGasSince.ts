import type { Address, Client, Hex } from 'viem'
import { entryPoint08Abi } from 'viem/account-abstraction'
import { getBlock, getBlockNumber, getContractEvents } from 'viem/actions'

/**
 * The gas `paymaster` has paid since `since` (wei), from the EntryPoint's `UserOperationEvent` logs —
 * the chain's own record of sponsorship, so no ledger of ours can drift from it. With `sender`, only
 * that account's operations count (a `sponsor_gas` rule `over: "wallet"`), else every account's.
 * @example const spent = await sponsoredGasSince(client, { entryPoint, paymaster, since })
 */
export async function sponsoredGasSince(client: Client, query: SponsoredQuery): Promise<bigint> {
  const operations = await sponsoredUserOperationsSince(client, query)
  return operations.reduce((sum, operation) => sum + operation.actualGasCost, 0n)
}

export type SponsoredQuery = {
  entryPoint: Address
  paymaster: Address
  sender?: Address | undefined
  since: Date
}

/**
 * Each op `paymaster` has paid for since `since`: its userOpHash and `actualGasCost` (wei), from the
 * EntryPoint's `UserOperationEvent` logs (what {@link sponsoredGasSince} sums).
 * @example const included = await sponsoredUserOperationsSince(client, { entryPoint, paymaster, since })
 */
export async function sponsoredUserOperationsSince(
  client: Client,
  { entryPoint, paymaster, sender, since }: SponsoredQuery,
): Promise<{ userOpHash: Hex; actualGasCost: bigint }[]> {
  const fromBlock = await firstBlockAt(client, BigInt(Math.floor(since.getTime() / 1000)))
  if (fromBlock === undefined) return []
  const events = await getContractEvents(client, {
    address: entryPoint,
    abi: entryPoint08Abi,
    eventName: 'UserOperationEvent',
    args: { paymaster, ...(sender ? { sender } : {}) },
    fromBlock,
    toBlock: 'latest',
  })
  return events.map((event) => ({
    userOpHash: event.args.userOpHash!,
    actualGasCost: event.args.actualGasCost!,
  }))
}

/** The first block stamped at or after `timestamp` (binary search; undefined when none is yet). */
async function firstBlockAt(client: Client, timestamp: bigint): Promise<bigint | undefined> {
  const latest = await getBlockNumber(client, { cacheTime: 0 })
  if ((await getBlock(client, { blockNumber: latest })).timestamp < timestamp) return undefined
  let low = 0n
  let high = latest
  while (low < high) {
    const middle = (low + high) / 2n
    if ((await getBlock(client, { blockNumber: middle })).timestamp < timestamp) low = middle + 1n
    else high = middle
  }
  return low
}

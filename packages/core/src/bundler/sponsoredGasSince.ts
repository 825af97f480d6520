import type { Address, Client } from 'viem'
import { entryPoint08Abi } from 'viem/account-abstraction'
import { getBlock, getBlockNumber, getContractEvents } from 'viem/actions'

/**
 * The gas `paymaster` has paid since `since` (wei), from the EntryPoint's `UserOperationEvent` logs —
 * the chain's own record of sponsorship, so no ledger of ours can drift from it. With `sender`, only
 * that account's operations count (a `sponsor_gas` rule `over: "wallet"`), else every account's.
 * @example const spent = await sponsoredGasSince(client, { entryPoint, paymaster, since })
 */
export async function sponsoredGasSince(
  client: Client,
  {
    entryPoint,
    paymaster,
    sender,
    since,
  }: { entryPoint: Address; paymaster: Address; sender?: Address | undefined; since: Date },
): Promise<bigint> {
  const fromBlock = await firstBlockAt(client, BigInt(Math.floor(since.getTime() / 1000)))
  if (fromBlock === undefined) return 0n
  const events = await getContractEvents(client, {
    address: entryPoint,
    abi: entryPoint08Abi,
    eventName: 'UserOperationEvent',
    args: { paymaster, ...(sender ? { sender } : {}) },
    fromBlock,
    toBlock: 'latest',
  })
  return events.reduce((sum, event) => sum + event.args.actualGasCost!, 0n)
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

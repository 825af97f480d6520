import type { Devnet } from '@agentwallet/devnet'
import { type Hash, numberToHex } from 'viem'

/** A place in the devnet's history to reorganise back to (an `evm_snapshot`). */
export type ReorgPoint = { devnet: Devnet; snapshot: string; head: bigint }

/** What a reorg replaced: the blocks that left the canonical chain, and the new head. */
export type Reorg = { dropped: { number: bigint; hash: Hash }[]; head: bigint }

type Block = { number: Hex; hash: Hash; timestamp: Hex }
type Hex = `0x${string}`

/**
 * Marks the current head of an in-process (or data-dir) devnet as a reorg point.
 * @example const point = await reorgPoint(devnet); await aw.send(…); await reorgTo(point, { mine: 3 })
 */
export async function reorgPoint(devnet: Devnet): Promise<ReorgPoint> {
  const head = BigInt(await devnet.provider.request({ method: 'eth_blockNumber', params: [] }))
  const snapshot: string = await devnet.provider.request({ method: 'evm_snapshot', params: [] })
  return { devnet, snapshot, head }
}

/**
 * Reorganises the chain: every block mined since `point` (and the transactions in them) leaves the
 * canonical chain, and `mine` new empty blocks (default: one more than were dropped, so the new branch
 * is the longer one) take their heights. The new blocks carry later timestamps, so each new block's
 * hash differs from the one it replaced even when both are empty. A point is used once (EDR drops a
 * snapshot it reverts to); take a new one for the next reorg.
 * @example const { dropped } = await reorgTo(point, { mine: 3 })
 */
export async function reorgTo(point: ReorgPoint, options: { mine?: number } = {}): Promise<Reorg> {
  const { provider } = point.devnet
  const request = (method: string, params: unknown[] = []) => provider.request({ method, params })
  const tip: Block = await request('eth_getBlockByNumber', ['latest', false])
  const dropped: Reorg['dropped'] = []
  for (let number = point.head + 1n; number <= BigInt(tip.number); number++) {
    const block: Block = await request('eth_getBlockByNumber', [numberToHex(number), false])
    dropped.push({ number, hash: block.hash })
  }
  const reverted: boolean = await request('evm_revert', [point.snapshot])
  if (!reverted) throw new Error(`reorgTo: snapshot ${point.snapshot} is gone (each point is used once)`)
  const mine = options.mine ?? dropped.length + 1
  if (mine > 0) {
    await request('evm_setNextBlockTimestamp', [numberToHex(BigInt(tip.timestamp) + 1n)])
    await request('hardhat_mine', [numberToHex(mine)])
  }
  const head = BigInt(await request('eth_blockNumber'))
  return { dropped, head }
}

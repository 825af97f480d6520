import { BlockNotFoundError, type Hex } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import type { Filter } from '../storage/types.js'
import { finalityDepthOf } from './finalityDepthOf.js'
import { writeOperationReorged } from './operationTransitions.js'
import { isMinedOperation, type MinedOperation } from './types.js'

/**
 * The tracker's watch over smart wallets' included ops until final, as `watchMined` over txs: each
 * record's block is read at its height; one still canonical and `finalityDepth` deep becomes
 * `finalized`, one whose block left the chain goes back to `submitted` with `tx.reorged`
 * (`writeOperationReorged`). The relayer's own watch broadcasts the carrier again; the op's receipt
 * then confirms the intent in its new block. The op keeps its nonce, so it is included once.
 * @example await watchOperations(ctx, { chains: ['devnet'] })
 */
export async function watchOperations(
  ctx: AgentWalletContext,
  options: { chains?: readonly string[] | undefined } = {},
): Promise<void> {
  const chain: Filter = options.chains ? { chain: options.chains } : {}
  const watched = (
    await ctx.storage.query('transactions', {
      where: { finality: 'pending', ...chain },
      orderBy: 'createdAt',
      limit: 1000,
    })
  ).filter(isMinedOperation)
  const byChain = new Map<string, MinedOperation[]>()
  for (const record of watched) byChain.set(record.chain, [...(byChain.get(record.chain) ?? []), record])
  await Promise.all([...byChain].map(([name, records]) => watchChain(ctx, ctx.chains.get(name), records)))
}

async function watchChain(ctx: AgentWalletContext, chain: ChainHandle, records: MinedOperation[]) {
  const head = await chain.client.getBlockNumber({ cacheTime: 0 }).catch(() => undefined)
  if (head === undefined) return
  const depth = finalityDepthOf(ctx, chain)
  const heights = [...new Set(records.map((record) => record.blockNumber))]
  const hashes = new Map(
    await Promise.all(heights.map(async (height) => [height, await canonicalHash(chain, height)] as const)),
  )
  const now = ctx.now().toISOString()
  await ctx.storage.transaction([], async (tx) => {
    for (const record of records) {
      const canonical = hashes.get(record.blockNumber)
      if (canonical === 'unknown') continue
      const current = await tx.get('transactions', record.id)
      if (current?.status !== 'confirmed' || current.blockHash !== record.blockHash) continue
      if (canonical !== record.blockHash) await writeOperationReorged(ctx, tx, record)
      else if (Number(head) - record.blockNumber + 1 >= depth)
        await tx.put('transactions', { ...record, finality: 'finalized', finalizedAt: now })
    }
  })
}

/** The canonical block's hash at `height`; undefined when the chain is shorter now, `unknown` unread. */
function canonicalHash(chain: ChainHandle, height: number): Promise<Hex | undefined | 'unknown'> {
  return chain.client.getBlock({ blockNumber: BigInt(height) }).then(
    (block): Hex | undefined => block.hash ?? undefined,
    (error: unknown): undefined | 'unknown' => (error instanceof BlockNotFoundError ? undefined : 'unknown'),
  )
}

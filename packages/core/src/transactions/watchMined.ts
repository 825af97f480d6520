import { BlockNotFoundError, type Hex, TransactionReceiptNotFoundError } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import type { Filter } from '../storage/types.js'
import { type AnyCarrier, carrierOf, type Watched } from './carrier.js'
import { finalityDepthOf } from './finalityDepthOf.js'
import { writeBlockChecked } from './transitions.js'
import { isMinedUserOperation, isSigned, type TransactionRecord } from './types.js'

/**
 * The tracker's watch over mined txs until they are final: each pass reads the head and, once per
 * distinct block, the canonical block at each watched height. A tx whose block is still canonical
 * and `finalityDepth` deep becomes `finalized`; one whose block left the chain (a reorg) goes back
 * to `submitted` with `tx.reorged`, its same signed bytes are broadcast again, and the wallet's next
 * nonce is re-derived from the node; the receipt pass then confirms it again in its new block. With
 * `all` (start-up), records mined before block hashes were kept are checked once too. A smart
 * wallet's included op is watched the same way, by its carrier's block; reorged, it goes back to
 * `submitted` (`writeUserOperationReorged`) and the relayer's own watch broadcasts the carrier again. With `memo`
 * (the tracker loop's), txs found canonical below a head still on the chain are not read again.
 * @example await watchMined(ctx, { chains: ['devnet'] })
 */
export async function watchMined(
  ctx: AgentWalletContext,
  options: { all?: boolean; chains?: readonly string[] | undefined; memo?: WatchMemo | undefined } = {},
): Promise<void> {
  const chain: Filter = options.chains ? { chain: options.chains } : {}
  const [watched, unchecked] = await Promise.all([
    ctx.storage.query('transactions', {
      // Only `finality` (indexed): few records are pending, whatever the size of the history.
      where: { finality: 'pending', ...chain },
      orderBy: 'createdAt',
      limit: 1000,
    }),
    options.all
      ? ctx.storage.query('transactions', {
          where: { status: 'confirmed', finality: null, ...chain },
          range: { field: 'blockNumber', gte: 0 },
          limit: 1000,
        })
      : [],
  ])
  const byChain = new Map<string, Watched[]>()
  for (const record of [...watched, ...unchecked].filter(isWatched))
    byChain.set(record.chain, [...(byChain.get(record.chain) ?? []), record])
  await Promise.all(
    [...byChain].map(([name, records]) => watchChain(ctx, ctx.chains.get(name), records, options.memo)),
  )
}

const isWatched = (record: TransactionRecord): record is Watched =>
  isMinedUserOperation(record) ||
  ((record.status === 'confirmed' || record.status === 'failed') &&
    record.blockNumber !== undefined &&
    isSigned(record))

/** What a pass learnt of one record's block. */
type Verdict =
  | { record: Watched; kind: 'canonical'; blockHash: Hex; final: boolean }
  | { record: Watched; kind: 'reorged' }

/**
 * What the tracker remembers between passes, per chain: the head it last saw and the txs it found
 * canonical at or below it. While that head is still on the chain (the chain only grew), those
 * txs are too (a block's hash commits to all its ancestors) and are not read again: a pass costs
 * one or two reads plus one per height newly mined, not one per watched height.
 * @example const memo = watchMemo(); await trackTransactions(ctx, { memo })
 */
export type WatchMemo = Map<string, { head: { number: number; hash: Hex }; canonical: Map<string, Hex> }>

/** An empty memo, kept by the tracker loop from one pass to the next. */
export const watchMemo = (): WatchMemo => new Map()

async function watchChain(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  records: Watched[],
  memo: WatchMemo | undefined,
): Promise<void> {
  const latest = await chain.client.getBlock({ blockTag: 'latest' }).then(
    (block) => (block.hash ? { number: Number(block.number), hash: block.hash } : undefined),
    () => undefined,
  )
  if (latest === undefined) return
  const head = latest.number
  const depth = finalityDepthOf(ctx, chain)
  const isFinal = (blockNumber: number) => head - blockNumber + 1 >= depth
  const seen = memo?.get(chain.name)
  const grown = seen !== undefined && (await onChain(chain, seen.head, latest))
  const known = (record: Watched) =>
    grown &&
    record.blockNumber <= seen.head.number &&
    record.blockHash !== undefined &&
    seen.canonical.get(record.id) === record.blockHash
  // A record never checked (saved before block hashes were kept) and already deep is taken as final
  // without a read: a reorg that deep is past what the tracker watches on any chain.
  const deepUnchecked = records.filter(
    (record) => record.finality === undefined && isFinal(record.blockNumber),
  )
  const toCheck = records.filter((record) => !deepUnchecked.includes(record) && !known(record))
  const canonical = await canonicalHashes(chain, toCheck)
  const verdicts: Verdict[] = records.filter(known).map((record) => ({
    record,
    kind: 'canonical' as const,
    blockHash: record.blockHash as Hex,
    final: isFinal(record.blockNumber),
  }))
  for (const record of toCheck) {
    const verdict = await judge(chain, record, canonical, isFinal(record.blockNumber))
    if (verdict) verdicts.push(verdict)
  }
  memo?.set(chain.name, {
    head: latest,
    canonical: new Map(
      verdicts.flatMap((verdict) =>
        verdict.kind === 'canonical' && !verdict.final && verdict.record.blockNumber <= head
          ? [[verdict.record.id, verdict.blockHash] as const]
          : [],
      ),
    ),
  })
  const checked = verdicts.filter((verdict) => verdict.kind === 'canonical')
  const changed = checked.filter(
    (verdict) => verdict.final || verdict.record.finality === undefined || !verdict.record.blockHash,
  )
  const now = ctx.now().toISOString()
  if (changed.length > 0 || deepUnchecked.length > 0) {
    await ctx.storage.transaction([], async (tx) => {
      for (const { record, blockHash, final } of changed)
        if (await stillAsWatched(tx, record))
          await writeBlockChecked(tx, record, { blockHash, finalizedAt: final ? now : undefined })
      for (const record of deepUnchecked)
        if (await stillAsWatched(tx, record))
          await tx.put('transactions', { ...record, finality: 'finalized', finalizedAt: now })
    })
  }
  const reorged = verdicts.filter((verdict) => verdict.kind === 'reorged').map(({ record }) => record)
  const byCarrier = new Map<AnyCarrier, Watched[]>()
  for (const record of reorged) {
    const carrier = carrierOf(ctx, record)
    byCarrier.set(carrier, [...(byCarrier.get(carrier) ?? []), record])
  }
  await Promise.all([...byCarrier].map(([carrier, records]) => carrier.reorged(ctx, chain, records)))
}

/** True when the head seen last is still on the chain whose head is `latest` (it only grew since). */
async function onChain(
  chain: ChainHandle,
  seen: { number: number; hash: Hex },
  latest: { number: number; hash: Hex },
): Promise<boolean> {
  if (seen.number > latest.number) return false
  if (seen.number === latest.number) return seen.hash === latest.hash
  const block = await chain.client.getBlock({ blockNumber: BigInt(seen.number) }).catch(() => undefined)
  return block?.hash === seen.hash
}

/** The canonical block hash at each height the records were mined at (undefined: no such block now). */
async function canonicalHashes(
  chain: ChainHandle,
  records: readonly Watched[],
): Promise<Map<number, Hex | undefined | 'unknown'>> {
  const heights = [...new Set(records.map((record) => record.blockNumber))]
  const hashes = await Promise.all(
    heights.map((blockNumber) =>
      chain.client.getBlock({ blockNumber: BigInt(blockNumber) }).then(
        (block): Hex | undefined => block.hash ?? undefined,
        // No block at that height (the chain is shorter now) is an answer; a failed read is not.
        (error: unknown): undefined | 'unknown' =>
          error instanceof BlockNotFoundError ? undefined : 'unknown',
      ),
    ),
  )
  return new Map(heights.map((height, index) => [height, hashes[index]]))
}

/**
 * Whether the record's block is still canonical. A record without a block hash (saved before they
 * were kept) is asked about by its receipt, once. Undefined when the node could not be read.
 */
async function judge(
  chain: ChainHandle,
  record: Watched,
  canonical: Map<number, Hex | undefined | 'unknown'>,
  final: boolean,
): Promise<Verdict | undefined> {
  const hash = canonical.get(record.blockNumber)
  if (hash === 'unknown') return undefined
  let blockHash = record.blockHash
  if (blockHash === undefined) {
    const receipt = await chain.client.getTransactionReceipt({ hash: record.hash }).then(
      (found) => found,
      (error: unknown) => (error instanceof TransactionReceiptNotFoundError ? null : undefined),
    )
    if (receipt === undefined) return undefined
    blockHash = receipt?.blockHash
  }
  if (hash === undefined || blockHash !== hash) return { record, kind: 'reorged' }
  return { record, kind: 'canonical', blockHash: hash, final }
}

/**
 * Whether the stored record is still as the watch read it (same status and block): a reorg's
 * transition is written only then.
 * @example if (await stillAsWatched(tx, record)) await writeReorged(ctx, tx, record)
 */
export async function stillAsWatched(
  tx: Pick<AgentWalletContext['storage'], 'get'>,
  record: Watched,
): Promise<boolean> {
  const current = await tx.get('transactions', record.id)
  return (
    current?.status === record.status &&
    current.blockNumber === record.blockNumber &&
    current.blockHash === record.blockHash
  )
}

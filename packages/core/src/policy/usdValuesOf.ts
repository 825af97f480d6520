import { chainInfoOf } from '../chain/chainInfoOf.js'
import type { AgentWalletContext } from '../context.js'
import type { Effect } from '../effects/types.js'
import type { PolicyIntent, UsdValuation } from '../intents/types.js'
import type { StoredUsd, TransactionRecord } from '../transactions/types.js'
import { countedEffectsOf } from './countedEffects.js'
import { isOutflow } from './outflowsOf.js'
import { formatUsd, parseUsd } from './usdValueOf.js'
import { type UsdPriceMemo, valueInUsd } from './valueInUsd.js'

/** A counted past intent's USD figures: its valuation, and its stored effects with each outflow valued. */
export type ValuedEntry = { usd: UsdValuation; effects?: Effect[] | undefined }

/**
 * The USD values a dollar rule needs, read before the pure engine runs: each outflow effect of the
 * intent (unless valued already: a paused intent keeps the values it was made at) and their sum;
 * and each counted past intent's — its stored effects' values, or for one made before effects or any
 * USD rule applied, its value at today's price. Each asset's feed is read once.
 * @example const { intent, effects, entries } = await usdValuesOf(ctx, intent, records)
 */
export async function usdValuesOf(
  ctx: AgentWalletContext,
  intent: PolicyIntent,
  records: readonly TransactionRecord[],
): Promise<{ intent: UsdValuation; effects?: Effect[] | undefined; entries: ValuedEntry[] }> {
  // Each intent is valued at its own chain's feeds (an agent's window spans chains), each feed read once.
  const memos = new Map<string, UsdPriceMemo>()
  const pricing = (name: string) => {
    const memo: UsdPriceMemo = memos.get(name) ?? new Map()
    memos.set(name, memo)
    return { chain: chainInfoOf(ctx.chains, name), memo }
  }
  const valueEffects = (name: string, effects: readonly Effect[]) =>
    Promise.all(
      effects.map(async (effect): Promise<Effect> => {
        if (effect.usd || !isOutflow(effect)) return effect
        const { chain, memo } = pricing(name)
        if (!effect.unlimited)
          return { ...effect, usd: await valueInUsd(ctx, chain, effect.asset, effect.amount, memo) }
        // An unlimited grant has no worth to state, but whether its asset has a price at all is
        // what a budget over priced assets (`unpriced: "skip"`) needs to know.
        const priced = await valueInUsd(ctx, chain, effect.asset, 1n, memo)
        return priced.error ? { ...effect, usd: priced } : effect
      }),
    )
  const { chain, memo } = pricing(intent.chain)
  const known = intent.effects?.status === 'known' ? intent.effects.effects : undefined
  const [effects, entries] = await Promise.all([
    known ? valueEffects(intent.chain, known) : undefined,
    Promise.all(
      records.map(async (record): Promise<ValuedEntry> => {
        const counted = countedEffectsOf(record)
        if (counted) {
          const valued = await valueEffects(record.chain, counted)
          // A mined tx counts what its receipt showed where that is more: its effects are summed again.
          const stored = record.receiptEffects ? undefined : usdOfRecord(record)
          return { usd: stored ?? sumOf(valued), effects: valued }
        }
        const priced = usdOfRecord(record)
        if (priced) return { usd: priced }
        const at = pricing(record.chain)
        return { usd: await valueInUsd(ctx, at.chain, record.asset, BigInt(record.amount), at.memo) }
      }),
    ),
  ])
  const valued =
    intent.usd ?? (effects ? sumOf(effects) : await valueInUsd(ctx, chain, intent.asset, intent.amount, memo))
  return { intent: valued, effects, entries }
}

/**
 * What the outflows are worth together (an unlimited grant has no worth to add), with the price
 * when one asset priced them all; the first error when one has no value.
 */
function sumOf(effects: readonly Effect[]): UsdValuation {
  let value = 0n
  const valued: UsdValuation[] = []
  for (const effect of effects) {
    if (!isOutflow(effect) || effect.unlimited) continue
    if (effect.usd?.value === undefined) return effect.usd ?? { value: 0n }
    value += effect.usd.value
    valued.push(effect.usd)
  }
  const [first] = valued
  return valued.length === 1 && first ? first : { value }
}

/** The stored form of a valuation (undefined when it failed: nothing is stored then). */
export function storedUsdOf(valuation: UsdValuation | undefined): StoredUsd | undefined {
  if (valuation?.value === undefined) return undefined
  return { value: formatUsd(valuation.value), ...valuation.price }
}

/** The valuation a stored intent was made with, if it was valued. */
export function usdOfRecord(record: Pick<TransactionRecord, 'usd'>): UsdValuation | undefined {
  if (!record.usd) return undefined
  const { value, ...price } = record.usd
  return {
    value: parseUsd(value),
    ...(price.price === undefined ? {} : { price: price as Required<typeof price> }),
  }
}

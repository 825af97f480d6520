import type { AgentWalletContext } from '../context.js'
import type { PolicyIntent, UsdValuation } from '../intents/types.js'
import type { StoredUsd, TransactionRecord } from '../transactions/types.js'
import { formatUsd, parseUsd } from './usdValueOf.js'
import { type UsdPriceMemo, valueInUsd } from './valueInUsd.js'

/**
 * The USD values a dollar rule needs, read before the pure engine runs: the intent's (unless it
 * carries one: a paused intent keeps the value it was made at) and each counted past intent's — its
 * stored value, or for one made before any USD rule applied, its value at today's price. Each
 * asset's feed is read once.
 * @example const { intent, entries } = await usdValuesOf(ctx, intent, records)
 */
export async function usdValuesOf(
  ctx: AgentWalletContext,
  intent: PolicyIntent,
  records: readonly TransactionRecord[],
): Promise<{ intent: UsdValuation; entries: UsdValuation[] }> {
  const chain = ctx.chains.get(intent.chain)
  const memo: UsdPriceMemo = new Map()
  const [valued, ...entries] = await Promise.all([
    intent.usd ?? valueInUsd(ctx, chain, intent.asset, intent.amount, memo),
    ...records.map(
      (record) => usdOfRecord(record) ?? valueInUsd(ctx, chain, record.asset, BigInt(record.amount), memo),
    ),
  ])
  return { intent: valued!, entries }
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

import type { Address } from 'viem'
import type { AgentWalletContext } from '../context.js'
import { effectsDiffer } from '../effects/effectsDiffer.js'
import type { EffectLog } from '../effects/effectsOfLogs.js'
import { fromStoredEffects } from '../effects/fromStoredEffects.js'
import { isSafeExecution } from '../effects/isSafeExecution.js'
import { receiptEffects } from '../effects/receiptEffects.js'
import { toStoredEffects } from '../effects/toStoredEffects.js'
import type { Effect, StoredEffect } from '../effects/types.js'
import { appendEvent } from '../events/appendEvent.js'
import type { StorageTx } from '../storage/types.js'
import { txPayload } from './transitions.js'
import type { MinedTransaction, MinedUserOperation, TransactionRecord } from './types.js'

/**
 * What the receipt's logs and the top call show the tx (or a smart wallet's op: its own logs) did to
 * the account that paid (the wallet, or its Safe).
 * @example const actual = toStoredEffects(actualEffectsOf(ctx, record, receipt.logs))
 */
export function actualEffectsOf(
  ctx: AgentWalletContext,
  record: Pick<TransactionRecord, 'chain' | 'from' | 'via' | 'call' | 'effects'>,
  logs: readonly EffectLog[],
) {
  const { to, value } = record.call
  return receiptEffects(
    ctx.chains.get(record.chain),
    {
      holders: holdersOf(record),
      from: record.from,
      call: { to, value: BigInt(value) },
      predicted: record.effects ? fromStoredEffects(record.effects) : undefined,
    },
    logs,
  )
}

/** Whose assets a tx moved, as they were predicted: its Safe (`via`), or the wallet and, for a raw `execTransaction`, the Safe too. */
function holdersOf(record: Pick<TransactionRecord, 'from' | 'via' | 'call'>): Address[] {
  if (record.via) return [record.via]
  return isSafeExecution(record.call.data) ? [record.from, record.call.to] : [record.from]
}

/**
 * `tx.effects_differed`, in `tx`, when a mined tx's receipt shows other effects than were predicted
 * before it was signed (window totals count the larger of the two either way).
 */
export function appendEffectsDiffered(
  ctx: AgentWalletContext,
  tx: StorageTx,
  next: MinedTransaction | MinedUserOperation,
): void {
  if (!next.effects || !next.receiptEffects) return
  const predicted = fromStoredEffects(next.effects)
  const actual = fromStoredEffects(next.receiptEffects)
  const differ = effectsDiffer(predicted, actual, { to: next.call.to, value: BigInt(next.call.value) })
  if (!differ) return
  appendEvent(ctx, tx, next.tenantId, 'tx.effects_differed', {
    ...txPayload(next),
    blockNumber: next.blockNumber,
    missing: storedList(differ.missing),
    unexpected: storedList(differ.unexpected),
  })
}

function storedList(effects: Effect[]): StoredEffect[] {
  const stored = toStoredEffects({ status: 'known', source: 'receipt', effects })
  return stored.status === 'known' ? stored.effects : []
}

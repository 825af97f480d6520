import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import type { DomainEvent } from '../events/eventBus.js'
import { finalStatuses, type TransactionRecord } from './types.js'

/**
 * Resolves with the transaction once it reaches a final status (confirmed, failed, rejected,
 * expired, blocked), from the tracker's events; rejects with `internal` after `timeoutMs`.
 * @example const done = await waitForTransaction(ctx, transaction.id)
 */
export function waitForTransaction(
  ctx: AgentWalletContext,
  transactionId: string,
  options: { timeoutMs?: number } = {},
): Promise<TransactionRecord> {
  const timeoutMs = options.timeoutMs ?? 60_000
  return new Promise((resolve, reject) => {
    let settled = false
    const check = async () => {
      const record = await ctx.storage.get<TransactionRecord>('transactions', transactionId)
      if (!settled && record && finalStatuses.includes(record.status)) finish(() => resolve(record))
    }
    const onEvent = (event: DomainEvent) => {
      const data = event.data as { transactionId?: string }
      if (data.transactionId === transactionId) void check().catch(fail)
    }
    const fail = (error: unknown) => finish(() => reject(error))
    const timer = setTimeout(
      () =>
        fail(
          new BaseError('internal', 'Timed out waiting for the transaction to reach a final status', {
            details: { transactionId, timeoutMs },
          }),
        ),
      timeoutMs,
    )
    const finish = (settle: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      ctx.bus.off('*', onEvent)
      settle()
    }
    ctx.bus.on('*', onEvent)
    void check().catch(fail)
  })
}

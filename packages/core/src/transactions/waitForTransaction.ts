import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import { BaseError, isAgentWalletError } from '../errors/baseError.js'
import type { DomainEvent } from '../events/eventBus.js'
import type { Principal } from '../principals/types.js'
import { findTransaction, transactionAnswer } from './getTransaction.js'
import { hashLinksOf } from './hashLinksOf.js'
import type { waitForTransactionAnswerSchema, waitForTransactionSchema } from './transactionSchemas.js'
import { finalStatuses, type TransactionRecord } from './types.js'

/**
 * Waits until a transaction the principal may see reaches a final status (confirmed, failed,
 * rejected, expired, blocked), or `timeoutMs` passes; answers it either way, with `final`.
 * @example const { status, final } = await waitForTransaction(ctx, principal, { transaction: id })
 */
export async function waitForTransaction(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof waitForTransactionSchema>,
): Promise<z.infer<typeof waitForTransactionAnswerSchema>> {
  const record = await findTransaction(ctx, principal, input.transaction)
  const settled = await waitForFinalStatus(ctx, record.id, { timeoutMs: input.timeoutMs }).catch(
    async (error: unknown) => {
      if (isAgentWalletError(error) && error.details?.waited === true)
        return (await ctx.storage.get('transactions', record.id)) ?? record
      throw error
    },
  )
  const links = await hashLinksOf(ctx, principal, settled)
  return { ...(await transactionAnswer(ctx, settled, links)), final: finalStatuses.includes(settled.status) }
}

/**
 * Resolves with the stored transaction once it reaches a final status, from the tracker's events;
 * rejects with `internal` (`details.waited`) after `timeoutMs`.
 * @example const done = await waitForFinalStatus(ctx, transaction.id)
 */
export function waitForFinalStatus(
  ctx: AgentWalletContext,
  transactionId: string,
  options: { timeoutMs?: number } = {},
): Promise<TransactionRecord> {
  const timeoutMs = options.timeoutMs ?? 60_000
  return new Promise((resolve, reject) => {
    let settled = false
    const check = async () => {
      const record = await ctx.storage.get('transactions', transactionId)
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
            details: { transactionId, timeoutMs, waited: true },
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

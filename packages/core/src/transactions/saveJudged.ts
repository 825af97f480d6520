import type { AgentWalletContext } from '../context.js'
import type { CommitOptions } from './carrier.js'
import type { TransactionRecord } from './types.js'

/**
 * Writes a judged intent as it is (nothing signed) in one commit with what the caller writes beside it.
 * @example await saveJudged(ctx, record, { write: 'insert', alongside })
 */
export async function saveJudged(
  ctx: AgentWalletContext,
  record: TransactionRecord,
  options: Pick<CommitOptions, 'write' | 'alongside'>,
): Promise<void> {
  await ctx.storage.transaction([], async (tx) => {
    await tx[options.write]('transactions', record)
    await options.alongside?.(tx, record)
  })
}

import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { recordsUnderHash } from './recordsUnderHash.js'
import type { HashLinks } from './transactionSchemas.js'
import type { TransactionRecord } from './types.js'

/**
 * What an answer about one transaction says of the other records under its hash that the principal
 * may see: the carrier of a smart wallet's send (the relayer's `handleOps`), and the other intents
 * the same tx carried (on the carrier's own record: all of them). Nothing for a hash of its own.
 * @example const transaction = { ...toTransactionView(record), ...(await hashLinksOf(ctx, principal, record)) }
 */
export async function hashLinksOf(
  ctx: AgentWalletContext,
  principal: Principal,
  record: TransactionRecord,
): Promise<HashLinks> {
  const hash = record.hash
  if (!hash) return {}
  const { carried, carrier } = await recordsUnderHash(ctx, principal, hash)
  const others = carried.filter((each) => each.id !== record.id).map((each) => each.id)
  return {
    ...(carrier && carrier.id !== record.id ? { carrier: { id: carrier.id, hash } } : {}),
    ...(others.length > 0 ? { carried: others } : {}),
  }
}

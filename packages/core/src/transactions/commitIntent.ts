import type { ChainInfo } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { type CommitOptions, type Committed, carrierOf } from './carrier.js'
import { saveJudged } from './saveJudged.js'
import type {
  ClosedTransaction,
  GasSettings,
  PendingApprovalTransaction,
  UnsignedQueuedTransaction,
} from './types.js'

/** An intent as judged, before it is saved: paused, blocked, or accepted and not yet signed. */
export type JudgedTransaction = PendingApprovalTransaction | ClosedTransaction | UnsignedQueuedTransaction

export type { Committed } from './carrier.js'

/**
 * Saves a judged intent in one commit with what the caller writes beside it (`alongside`: its
 * approval, idempotency record, events). An accepted one goes to its carrier (`Carrier.commit`),
 * which saves it its own way and starts taking it out: the lane signs it first, so intent, raw tx
 * and nonce are durable together, then broadcasts it in the wallet's lane; a user operation is
 * signed and handed to the bundler after the commit. The caller holds the wallet lock and awaits
 * `sending` only once it has released it.
 * @example const { sending } = await commitIntent(ctx, chain, record, gas, { write: 'insert', alongside })
 */
export async function commitIntent(
  ctx: AgentWalletContext,
  chain: ChainInfo,
  record: JudgedTransaction,
  gas: GasSettings | undefined,
  options: CommitOptions,
): Promise<Committed> {
  if (record.status === 'queued') return carrierOf(ctx, record).commit(ctx, chain, record, gas, options)
  await saveJudged(ctx, record, options)
  return { record }
}

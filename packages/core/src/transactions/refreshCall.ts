import type { ChainInfo } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { callRefreshersOf } from './callRefreshers.js'
import type { TransactionRecord } from './types.js'

/**
 * Makes again the bytes of a call that embed something short-lived, just before an intent that
 * waited (for an approver, or for a restart) is signed: whatever the steps of the context's
 * operations registered (`registerCallRefresher`) — today the signature of an ERC-8004
 * `setAgentWallet` (identity registration) and the deadline of a swap on an address-book router
 * (same `amountOutMin`). The first refresher that knows the record answers; any other record comes
 * back as is. The intent (contract, function, amounts, recipient, sender) stays what the policy and
 * the approver saw. Callers use it only for bytes about to be signed: an intent not signed yet, or
 * a stuck one being replaced at its nonce (a signed transaction is otherwise only ever rebroadcast
 * byte for byte).
 * @example const fresh = await refreshCall(ctx, chain, transaction)
 */
export async function refreshCall<Record extends TransactionRecord>(
  ctx: AgentWalletContext,
  chain: ChainInfo,
  record: Record,
): Promise<Record> {
  // What is refreshed is calldata (an EVM call's): a call without any carries nothing short-lived.
  if (record.call.data === undefined) return record
  const evm = ctx.chains.get(chain.name)
  for (const refresher of callRefreshersOf(ctx)) {
    const data = await refresher(ctx, evm, record)
    if (!data) continue
    // In a batch, the same call is renewed where it stands among the others.
    const calls = record.calls?.map((call) =>
      call.data === record.call.data && call.to === record.call.to ? { ...call, data } : call,
    )
    return { ...record, call: { ...record.call, data }, ...(calls ? { calls } : {}) }
  }
  return record
}

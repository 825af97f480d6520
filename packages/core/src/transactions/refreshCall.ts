import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { resignAgentWalletCall } from '../identity/agentWalletCall.js'
import type { TransactionRecord } from './types.js'

/**
 * Makes again the bytes of a call that embed a short-lived signature (an ERC-8004 `setAgentWallet`
 * of an identity registration), just before an intent that waited (for an approver, or for a
 * restart) is signed; any other record comes back as is. The intent (contract, function, agent,
 * wallet, sender) stays what the policy and the approver saw. A signed transaction is never
 * touched: it is only ever rebroadcast byte for byte.
 * @example const fresh = await refreshCall(ctx, chain, transaction)
 */
export async function refreshCall(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: TransactionRecord,
): Promise<TransactionRecord> {
  if (record.rawTx) return record
  const data = await resignAgentWalletCall(ctx, chain, record)
  if (!data) return record
  return { ...record, call: { ...record.call, data } }
}

import type { AgentWalletContext } from '../context.js'
import { agentLockKey, walletLockKey } from '../storage/withLock.js'
import type { WalletRecord } from '../wallets/types.js'
import { agentRules } from './policyStore.js'

/**
 * The locks a send of `wallet` is judged under: the wallet's, and its agent key's when that key has
 * rules counting a window (they sum every wallet it holds, so its sends are judged one at a time).
 * @example await withLock(ctx.storage, await judgingLocks(ctx, wallet), async () => { … })
 */
export async function judgingLocks(
  ctx: Pick<AgentWalletContext, 'storage' | 'policy'>,
  wallet: Pick<WalletRecord, 'address' | 'ownerId'>,
): Promise<string[]> {
  const rules = await agentRules(ctx, wallet.ownerId)
  const windowed = ctx.policy.lookbackMs(rules.map((rule) => ({ scope: 'agent' as const, rule }))) > 0
  return windowed
    ? [walletLockKey(wallet.address), agentLockKey(wallet.ownerId)]
    : [walletLockKey(wallet.address)]
}

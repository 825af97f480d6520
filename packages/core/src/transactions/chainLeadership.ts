import type { ChainInfo } from '../chain/types.js'
import type { LeaderLock, Storage } from '../storage/types.js'

export type ChainLeadership = {
  /** The chains (by name) whose tracker lock this process holds now, trying free ones on the way. */
  held(chains: readonly ChainInfo[]): Promise<string[]>
  release(): Promise<void>
}

/**
 * One tracker per chain across processes: a leader lock per chain id (`tracker:chain:<id>`, so replicas
 * that name a chain differently still elect one). A follower retries at most every `retryMs`; a
 * lock whose signal aborted (its holder's connection dropped) is dropped and retried like a free one.
 * @example const leadership = chainLeadership(storage, { retryMs: 1000 }); const mine = await leadership.held(chains.list())
 */
export function chainLeadership(
  storage: Pick<Storage, 'tryLeaderLock'>,
  options: { retryMs: number; now?: () => number; onError?: ((error: unknown) => void) | undefined },
): ChainLeadership {
  const now = options.now ?? Date.now
  const locks = new Map<number, LeaderLock>()
  const lastTry = new Map<number, number>()
  const take = async (chainId: number): Promise<void> => {
    const last = lastTry.get(chainId)
    if (last !== undefined && now() - last < options.retryMs) return
    lastTry.set(chainId, now())
    try {
      const lock = await storage.tryLeaderLock?.(`tracker:chain:${chainId}`)
      if (lock) locks.set(chainId, lock)
    } catch (error) {
      options.onError?.(error)
    }
  }
  return {
    async held(chains) {
      for (const chainId of new Set(chains.map((chain) => chain.chainId))) {
        const lock = locks.get(chainId)
        if (lock && !lock.signal.aborted) continue
        if (lock) {
          locks.delete(chainId)
          await lock.release().catch(() => {})
        }
        await take(chainId)
      }
      return chains.filter((chain) => locks.has(chain.chainId)).map((chain) => chain.name)
    },
    async release() {
      const held = [...locks.values()]
      locks.clear()
      await Promise.all(held.map((lock) => lock.release().catch(() => {})))
    },
  }
}

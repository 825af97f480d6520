import { memoryStorage, type Storage } from '@agentwallet/core'

/**
 * Memory storage that counts its commits: `unlocked` the transactions opened without lock keys (the
 * ones that write), `all` every one. `around` may wrap each transaction's work (to fail it, say).
 */
export function countingStorage(
  around: (keys: readonly string[], work: () => Promise<unknown>) => Promise<unknown> = (_, work) => work(),
) {
  const inner = memoryStorage()
  const counts = { all: 0, unlocked: 0 }
  const storage = new Proxy(inner, {
    get(target, property, receiver) {
      if (property !== 'transaction') return Reflect.get(target, property, receiver)
      return (keys: readonly string[], fn: Parameters<Storage['transaction']>[1]) => {
        counts.all++
        if (keys.length === 0) counts.unlocked++
        return target.transaction(keys, (tx) => around(keys, () => fn(tx)) as ReturnType<typeof fn>)
      }
    },
  })
  return { storage, counts }
}

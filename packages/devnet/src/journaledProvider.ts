import type { Journal } from './journal.js'
import { RpcError } from './rpcError.js'
import type { DevnetProvider, RequestArguments } from './types.js'

/** Requests that change chain state or how later requests behave; everything else is a read. */
const journaledMethods = new Set([
  'eth_sendRawTransaction',
  'eth_sendTransaction',
  'evm_mine',
  'hardhat_mine',
  'evm_increaseTime',
  'hardhat_setBalance',
  'hardhat_setCode',
  'hardhat_setNonce',
  'hardhat_setStorageAt',
  'hardhat_impersonateAccount',
  'hardhat_stopImpersonatingAccount',
  'hardhat_setCoinbase',
  'hardhat_setNextBlockBaseFeePerGas',
  'hardhat_setPrevRandao',
  'hardhat_setMinGasPrice',
  'evm_setBlockGasLimit',
  // With automine off, sends wait in the pool and the next journaled `evm_mine` takes them: replaying
  // both in order puts the same transactions in the same blocks.
  'evm_setAutomine',
])

/**
 * Would make the chain depend on wall-clock timing or a pending pool, which a journal cannot replay.
 * `evm_setIntervalMining` is answered above this provider (`withIntervalMining`), whose timer mines
 * with journaled `evm_mine` requests; reaching EDR's own timer here would mine blocks the journal misses.
 */
const refusedMethods = new Set(['evm_setIntervalMining', 'hardhat_reset', 'hardhat_dropTransaction'])

/**
 * Wraps a provider so every state change lands in the journal, in the order the chain applied it.
 * State changes run one at a time (reads do not wait), so journal order is mining order.
 */
export function journaledProvider(inner: DevnetProvider, journal: Journal): DevnetProvider {
  let queue: Promise<unknown> = Promise.resolve()
  const snapshots = new Map<string, number>()

  async function blockNumber(): Promise<bigint> {
    return BigInt(await inner.request({ method: 'eth_blockNumber' }))
  }

  async function journaled({ method, params }: RequestArguments) {
    const before = await blockNumber()
    const result = await inner.request({ method, params })
    const after = await blockNumber()
    let blockTimestamp: number | undefined
    if (after > before) {
      const block = await inner.request({
        method: 'eth_getBlockByNumber',
        params: [`0x${(before + 1n).toString(16)}`, false],
      })
      blockTimestamp = Number(block.timestamp)
    }
    const isSend = method === 'eth_sendRawTransaction' || method === 'eth_sendTransaction'
    journal.append({
      method,
      params: Array.isArray(params) ? params : [],
      blockTimestamp,
      result: isSend ? result : undefined,
      wallClock: Math.floor(Date.now() / 1000),
    })
    return result
  }

  function exclusive<T>(run: () => Promise<T>): Promise<T> {
    const next = queue.then(run, run)
    queue = next.catch(() => undefined)
    return next
  }

  return {
    request(args) {
      const { method } = args
      if (refusedMethods.has(method)) {
        return Promise.reject(
          new RpcError({ code: -32601, message: `${method} is not available on a devnet with a dataDir` }),
        )
      }
      if (journaledMethods.has(method)) return exclusive(() => journaled(args))
      if (method === 'evm_snapshot') {
        return exclusive(async () => {
          const id: string = await inner.request(args)
          snapshots.set(id, journal.mark())
          return id
        })
      }
      if (method === 'evm_revert') {
        return exclusive(async () => {
          const reverted: boolean = await inner.request(args)
          const mark = snapshots.get(String((args.params as unknown[] | undefined)?.[0]))
          if (reverted && mark !== undefined) journal.truncate(mark)
          return reverted
        })
      }
      return inner.request(args)
    },
  }
}

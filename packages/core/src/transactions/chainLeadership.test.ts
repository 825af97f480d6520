import { describe, expect, it } from 'vitest'
import type { AgentWalletContext } from '../context.js'
import { startTracker } from '../startTracker.js'
import { memoryStorage } from '../storage/memoryStorage.js'
import type { LeaderLock, QueryOptions, Storage } from '../storage/types.js'
import { chainLeadership } from './chainLeadership.js'

/** A lock table shared by "processes": each name has at most one holder. */
function lockTable() {
  const held = new Map<string, AbortController>()
  return {
    held,
    tryLeaderLock: async (name: string): Promise<LeaderLock | undefined> => {
      if (held.has(name)) return undefined
      const controller = new AbortController()
      held.set(name, controller)
      return {
        signal: controller.signal,
        async release() {
          if (held.get(name) === controller) held.delete(name)
        },
      }
    },
    /** What a dropped connection does: the holder's signal aborts and the name is free. */
    drop(name: string) {
      held.get(name)?.abort(new Error('connection lost'))
      held.delete(name)
    },
  }
}

const chains = [
  { name: 'devnet', chainId: 31337, nativeSymbol: 'ETH', nativeDecimals: 18, testnet: true },
  { name: 'sepolia', chainId: 11155111, nativeSymbol: 'ETH', nativeDecimals: 18, testnet: true },
]

describe('chainLeadership', () => {
  it('elects one holder per chain, retries after retryMs, and takes over a lost lock', async () => {
    const table = lockTable()
    let clock = 0
    const a = chainLeadership(table, { retryMs: 1000, now: () => clock })
    const b = chainLeadership(table, { retryMs: 1000, now: () => clock })
    expect(await a.held(chains)).toEqual(['devnet', 'sepolia'])
    expect(await b.held(chains)).toEqual([])
    table.drop('tracker:chain:31337')
    clock = 500
    // b tried 500 ms ago: it waits for retryMs; a sees its lock lost and does not count it.
    expect(await b.held(chains)).toEqual([])
    clock = 1000
    expect(await b.held(chains)).toEqual(['devnet'])
    expect(await a.held(chains)).toEqual(['sepolia'])
    await a.release()
    clock = 2000
    expect(await b.held(chains)).toEqual(['devnet', 'sepolia'])
    await b.release()
    expect(table.held.size).toBe(0)
  })

  it('reports a failing lock attempt and counts the chain as not held', async () => {
    const errors: unknown[] = []
    const failing = chainLeadership(
      { tryLeaderLock: () => Promise.reject(new Error('database down')) },
      { retryMs: 0, onError: (error) => errors.push(error) },
    )
    expect(await failing.held(chains)).toEqual([])
    expect(errors).toHaveLength(2)
  })
})

describe('startTracker with leader locks', () => {
  /** Two trackers over one storage that elects leaders; records which chains each pass queried. */
  function replica(storage: Storage, table: ReturnType<typeof lockTable>) {
    const passes: Array<QueryOptions['where']> = []
    const shared: Storage = {
      ...storage,
      capabilities: { ...storage.capabilities, leaderLocks: true },
      tryLeaderLock: table.tryLeaderLock,
      query: (collection, options) => {
        if (collection === 'transactions') passes.push(options?.where)
        return storage.query(collection, options)
      },
    }
    const ctx = {
      storage: shared,
      chains: { list: () => chains },
      options: { trackerIntervalMs: 5 },
      now: () => new Date(),
    } as unknown as AgentWalletContext
    return { passes, tracker: startTracker(ctx) }
  }

  it('runs the transaction pass only on the leader of each chain, and releases on stop', async () => {
    const storage = memoryStorage()
    const table = lockTable()
    const leader = replica(storage, table)
    await new Promise((resolve) => setTimeout(resolve, 30))
    const follower = replica(storage, table)
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(leader.passes.length).toBeGreaterThan(0)
    for (const where of leader.passes) expect(where?.chain).toEqual(['devnet', 'sepolia'])
    expect(follower.passes).toEqual([])
    await leader.tracker.stop()
    expect(table.held.size).toBe(0)
    // The follower retries at most once a second (retryMs floor), then takes over both chains.
    await expect
      .poll(() => follower.passes.at(-1)?.chain, { timeout: 3_000, interval: 50 })
      .toEqual(['devnet', 'sepolia'])
    await follower.tracker.stop()
    expect(table.held.size).toBe(0)
  })
})

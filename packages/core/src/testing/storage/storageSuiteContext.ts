import type { Storage } from '../../storage/types.js'
import type { TestRunner } from '../testRunner.js'

/** What each group of the storage suite receives. */
export type StorageSuiteContext = {
  runner: TestRunner
  /** Runs `fn` on a fresh, empty storage and closes it afterwards. */
  withStorage: (fn: (storage: Storage) => Promise<void>) => Promise<void>
}

/** Resolves after the current macrotask, so other async callers get a chance to interleave. */
export const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

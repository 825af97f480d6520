import type { ChildProcess } from 'node:child_process'
import type { Storage } from '../storage/types.js'
import { storageConcurrencyTests } from './storage/storageConcurrencyTests.js'
import { storageCrashTests } from './storage/storageCrashTests.js'
import { storageCrossProcessTests } from './storage/storageCrossProcessTests.js'
import { storageDurabilityTests } from './storage/storageDurabilityTests.js'
import { storageEventTests } from './storage/storageEventTests.js'
import { storageExtrasTests } from './storage/storageExtrasTests.js'
import { storageRecordTests } from './storage/storageRecordTests.js'
import type { StorageSuiteContext } from './storage/storageSuiteContext.js'
import { storageTransactionTests } from './storage/storageTransactionTests.js'
import { type TestRunner, testOrSkip } from './testRunner.js'

export type StorageConformanceOptions = {
  /** A fresh, empty storage per call. */
  create: () => Promise<Storage> | Storage
  /** Opens the same data again after `storage` was closed. Enables the durability test. */
  reopen?: ((storage: Storage) => Promise<Storage> | Storage) | undefined
  /** A second handle on `storage`'s backend, as another process would open it. Enables cross-process tests. */
  createPeer?: ((storage: Storage) => Promise<Storage> | Storage) | undefined
  /**
   * Starts a process that opens `storage`'s data (closed by then) and runs `runCrashWriter` on it,
   * `count` commits, reporting on stdout. Enables the kill -9 test (with `reopen`).
   */
  spawnCrashWriter?: ((storage: Storage, count: number) => ChildProcess) | undefined
  /** Concurrent callers in the lost-update test. Default 200. */
  concurrency?: number | undefined
  /** Groups to skip, each with the reason shown in the test name. */
  skip?: {
    durability?: string | undefined
    /** The kill -9 test (see `spawnCrashWriter`). */
    crash?: string | undefined
    crossProcessLocks?: string | undefined
    crossProcessEvents?: string | undefined
  }
}

/**
 * Registers the Storage conformance tests with the given test runner.
 * @example
 * import { describe, expect, it } from 'vitest'
 * import { runStorageConformance } from '@agentwallet/core/testing'
 * runStorageConformance({ describe, it, expect }, { create: () => myStorage() })
 */
export const runStorageConformance = (runner: TestRunner, options: StorageConformanceOptions) => {
  const create = async () => options.create()
  const skip = options.skip ?? {}
  const context: StorageSuiteContext = {
    runner,
    async withStorage(fn) {
      const storage = await create()
      try {
        await fn(storage)
      } finally {
        await storage.close()
      }
    },
  }
  const n = options.concurrency ?? 200

  runner.describe('Storage conformance', () => {
    runner.it('declares only capabilities this run can check, or skips them with a reason', () =>
      context.withStorage(async (storage) => {
        const { durable, crossProcessLocks, crossProcessEvents } = storage.capabilities
        const unproven = [
          durable && !options.reopen && skip.durability === undefined && 'durable (give reopen)',
          durable &&
            !options.spawnCrashWriter &&
            skip.crash === undefined &&
            'durable across a kill -9 (give spawnCrashWriter)',
          crossProcessLocks &&
            !options.createPeer &&
            skip.crossProcessLocks === undefined &&
            'crossProcessLocks (give createPeer)',
          crossProcessEvents &&
            !options.createPeer &&
            skip.crossProcessEvents === undefined &&
            'crossProcessEvents (give createPeer)',
        ].filter(Boolean)
        runner.expect(unproven).toEqual([])
      }),
    )
    runner.describe('records and queries', () => storageRecordTests(context))
    runner.describe('transactions', () => storageTransactionTests(context))
    runner.describe('event log', () => storageEventTests(context))
    runner.describe('concurrency', () => storageConcurrencyTests(context, n))
    runner.describe('durability', () => {
      const reopen = options.reopen
      if (reopen && skip.durability === undefined) {
        storageDurabilityTests(context, create, async (storage) => reopen(storage))
      } else {
        testOrSkip(
          runner,
          'survives close and reopen',
          skip.durability ?? 'no reopen function given',
          () => {},
        )
      }
    })
    runner.describe('crash', () => {
      const { reopen, spawnCrashWriter } = options
      if (reopen && spawnCrashWriter && skip.crash === undefined) {
        storageCrashTests(context, create, async (storage) => reopen(storage), spawnCrashWriter, 64)
      } else {
        testOrSkip(
          runner,
          'keeps every commit acknowledged before a kill -9',
          skip.crash ?? 'no reopen or spawnCrashWriter function given',
          () => {},
        )
      }
    })
    runner.describe('optional extras', () => {
      const createPeer = options.createPeer
      storageExtrasTests(context, createPeer ? async (storage) => createPeer(storage) : undefined)
    })
    runner.describe('cross-process', () => {
      const createPeer = options.createPeer
      const noPeer = createPeer ? undefined : 'no createPeer function given'
      storageCrossProcessTests(
        context,
        async (storage) => {
          if (!createPeer) throw new Error('createPeer is required for cross-process tests')
          return createPeer(storage)
        },
        { locks: skip.crossProcessLocks ?? noPeer, events: skip.crossProcessEvents ?? noPeer },
        n,
      )
    })
  })
}

import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ChainProvider } from '../chain/types.js'
import { type AgentWallet, createAgentWallet } from '../createAgentWallet.js'
import { BaseError } from '../errors/baseError.js'
import type { DomainEvent } from '../events/eventBus.js'
import { memoryStorage } from '../storage/memoryStorage.js'
import type { Storage } from '../storage/types.js'
import { registerOperations, runOperation, sleep } from './backgroundOperations.js'
import type { Retry, StepMachine } from './stepMachine.js'

// The kernel with a machine of the test's own, on a real AgentWallet (memory storage; no chain, which
// the kernel never touches): what the kernel promises every operation, whatever its steps do.

const toySchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  walletId: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  createdAt: z.string(),
  updatedAt: z.string().optional(),
})
type ToyRecord = z.infer<typeof toySchema>

/** What a step does on its nth try (1-based) of a record: finish, throw, or wait until stopped. */
type Behaviour = (attempt: number, signal: AbortSignal) => Promise<'done' | 'wait'>

/** A one-step machine whose step does what the test says, counting its tries per record (named as swaps are: the kernel knows only its own operations). */
function toyMachine(behaviours: Map<string, Behaviour>, retryable?: (error: unknown) => Retry | undefined) {
  const tries = new Map<string, number>()
  const machine: StepMachine<ToyRecord, 'work'> = {
    name: 'swap',
    collection: 'toy_operations',
    activeStatuses: ['running'],
    idName: 'swapId',
    load: async (ctx, id) => {
      const record = await ctx.storage.get('toy_operations', id)
      return record && toySchema.parse(record)
    },
    save: (tx, record) => tx.put('toy_operations', record),
    stepOf: () => 'work',
    steps: { work: retryable ? { retryable } : {} },
    async advance(ctx, record, { signal }) {
      const attempt = (tries.get(record.id) ?? 0) + 1
      tries.set(record.id, attempt)
      const outcome = await behaviours.get(record.id)!(attempt, signal)
      if (outcome === 'wait') return undefined
      const done: ToyRecord = { ...record, status: 'done' }
      await ctx.storage.transaction([], (tx) => machine.save(tx, done))
      return done
    },
    failed: (record, error) => ({ ...record, status: 'failed', error }),
  }
  return { machine, tries }
}

async function insertToy(storage: Storage, id: string): Promise<void> {
  const record: ToyRecord = {
    id,
    tenantId: 'default',
    walletId: 'wal_toy',
    status: 'running',
    createdAt: new Date().toISOString(),
  }
  await storage.transaction([], (tx) => tx.insert('toy_operations', record))
}

async function statusOf(aw: AgentWallet, id: string): Promise<ToyRecord> {
  return toySchema.parse(await aw.context.storage.get('toy_operations', id))
}

/** The next `operation.failed` of `operationId` on the bus. */
function nextFailure(aw: AgentWallet, operationId: string): Promise<DomainEvent<'operation.failed'>> {
  return new Promise((resolve) => {
    const listener = (event: DomainEvent<'operation.failed'>) => {
      if (event.data.operationId !== operationId) return
      aw.bus.off('operation.failed', listener)
      resolve(event)
    }
    aw.bus.on('operation.failed', listener)
  })
}

/** A provider with no chain: the kernel's steps here send nothing, and the tracker has nothing to track. */
const noChains: ChainProvider = {
  defaultChain: 'none',
  list: () => [],
  get(name) {
    throw new BaseError('unsupported_chain', `No chain ${name} in this test`)
  },
}

function agentWalletOn(storage: Storage, onBackgroundError?: (error: unknown) => void): Promise<AgentWallet> {
  return createAgentWallet({
    chains: noChains,
    storage,
    defaultTenantRules: [],
    trackerIntervalMs: 20,
    onBackgroundError,
  })
}

describe('the step kernel', () => {
  it('records a non-retryable error on the record, ends it failed and emits operation.failed', async () => {
    const aw = await agentWalletOn(memoryStorage())
    try {
      const behaviours = new Map<string, Behaviour>([
        [
          'toy_blocked',
          async () => {
            throw new BaseError('policy_blocked', 'The policy refused the step')
          },
        ],
      ])
      const { machine, tries } = toyMachine(behaviours)
      await insertToy(aw.context.storage, 'toy_blocked')
      const failure = nextFailure(aw, 'toy_blocked')
      runOperation(aw.context, machine, 'toy_blocked')
      const event = await failure
      expect(event.tenantId).toBe('default')
      expect(event.data).toEqual({
        operation: 'swap',
        operationId: 'toy_blocked',
        walletId: 'wal_toy',
        step: 'work',
        error: { code: 'policy_blocked', message: 'The policy refused the step' },
      })
      const record = await statusOf(aw, 'toy_blocked')
      expect(record.status).toBe('failed')
      expect(record.error).toEqual({ code: 'policy_blocked', message: 'The policy refused the step' })
      expect(tries.get('toy_blocked')).toBe(1)
    } finally {
      await aw.close()
    }
  })

  it('retries chain_unavailable (by default) until the step goes through', async () => {
    const aw = await agentWalletOn(memoryStorage())
    try {
      const behaviours = new Map<string, Behaviour>([
        [
          'toy_flaky',
          async (attempt) => {
            if (attempt === 1) throw new BaseError('chain_unavailable', 'The node did not answer')
            return 'done'
          },
        ],
      ])
      const { machine, tries } = toyMachine(behaviours)
      await insertToy(aw.context.storage, 'toy_flaky')
      runOperation(aw.context, machine, 'toy_flaky')
      await expect
        .poll(async () => (await statusOf(aw, 'toy_flaky')).status, { timeout: 10_000 })
        .toBe('done')
      expect(tries.get('toy_flaky')).toBe(2)
    } finally {
      await aw.close()
    }
  })

  it('retries what a step declares retryable as often as it says, then records the error', async () => {
    const aw = await agentWalletOn(memoryStorage())
    try {
      const busy = new BaseError('conflict', 'Busy, try again')
      const behaviours = new Map<string, Behaviour>([
        [
          'toy_twice',
          async (attempt) => {
            if (attempt < 3) throw busy
            return 'done'
          },
        ],
        [
          'toy_never',
          async () => {
            throw busy
          },
        ],
      ])
      const retryable = (error: unknown): Retry | undefined =>
        error === busy ? { reason: 'busy', afterMs: 5, attempts: 4 } : undefined
      const { machine, tries } = toyMachine(behaviours, retryable)
      await insertToy(aw.context.storage, 'toy_twice')
      await insertToy(aw.context.storage, 'toy_never')
      const failure = nextFailure(aw, 'toy_never')
      runOperation(aw.context, machine, 'toy_twice')
      runOperation(aw.context, machine, 'toy_never')
      expect((await failure).data.error).toEqual({ code: 'conflict', message: 'Busy, try again' })
      expect(tries.get('toy_never')).toBe(4)
      await expect.poll(async () => (await statusOf(aw, 'toy_twice')).status).toBe('done')
      expect(tries.get('toy_twice')).toBe(3)
    } finally {
      await aw.close()
    }
  })

  it('stops the loop at close, leaving the record resumable, and resumes it at the next start', async () => {
    const storage = memoryStorage()
    const first = await agentWalletOn(storage)
    let started: () => void = () => undefined
    const waiting = new Promise<void>((resolve) => {
      started = resolve
    })
    const behaviours = new Map<string, Behaviour>([
      [
        'toy_long',
        async (attempt, signal) => {
          if (attempt > 1) return 'done'
          started()
          await sleep(60_000, signal)
          return 'wait'
        },
      ],
    ])
    const { machine, tries } = toyMachine(behaviours)
    registerOperations(first.context, [machine])
    await insertToy(storage, 'toy_long')
    runOperation(first.context, machine, 'toy_long')
    await waiting
    await first.close()
    expect((await storage.get('toy_operations', 'toy_long'))?.status).toBe('running')
    expect(tries.get('toy_long')).toBe(1)

    const second = await agentWalletOn(storage)
    try {
      registerOperations(second.context, [machine])
      await second.reconcile()
      await expect.poll(async () => (await statusOf(second, 'toy_long')).status).toBe('done')
      expect(tries.get('toy_long')).toBe(2)
    } finally {
      await second.close()
    }
  })

  it('hands an error it cannot record (storage refused the write) to onBackgroundError', async () => {
    const errors: unknown[] = []
    const aw = await agentWalletOn(memoryStorage(), (error) => errors.push(error))
    try {
      const behaviours = new Map<string, Behaviour>([
        [
          'toy_unsaved',
          async () => {
            throw new BaseError('transaction_failed', 'Reverted')
          },
        ],
      ])
      const { machine } = toyMachine(behaviours)
      const refusing: typeof machine = {
        ...machine,
        save: async () => {
          throw new BaseError('storage_conflict', 'The database refused the write')
        },
      }
      await insertToy(aw.context.storage, 'toy_unsaved')
      runOperation(aw.context, refusing, 'toy_unsaved')
      await expect.poll(() => errors.length).toBe(1)
      const [reported] = errors
      expect(reported).toBeInstanceOf(BaseError)
      expect((reported as BaseError).code).toBe('internal')
      expect((reported as BaseError).details).toEqual({ operation: 'swap', operationId: 'toy_unsaved' })
      expect(((reported as BaseError).cause as BaseError).code).toBe('storage_conflict')
      expect((await statusOf(aw, 'toy_unsaved')).status).toBe('running')
    } finally {
      await aw.close()
    }
  })
})

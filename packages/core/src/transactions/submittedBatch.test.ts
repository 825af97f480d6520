import { describe, expect, it } from 'vitest'
import type { AgentWalletContext } from '../context.js'
import { memoryStorage } from '../storage/memoryStorage.js'
import { queueSubmitted, settleSubmitted } from './submittedBatch.js'
import type { SignedQueuedTransaction, TransactionRecord } from './types.js'

/** A signed, not yet submitted record: the fields the batch reads and the event payload carries. */
const queued = (id: string, hash: string) =>
  ({
    id,
    tenantId: 'default',
    walletId: 'wal_1',
    chain: 'devnet',
    from: '0x0000000000000000000000000000000000000001',
    to: '0x0000000000000000000000000000000000000002',
    kind: 'transfer',
    asset: { address: 'native', symbol: 'ETH', decimals: 18 },
    amount: '1',
    status: 'queued',
    hash,
    rawTx: '0x01',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  }) as unknown as SignedQueuedTransaction

describe('submittedBatch', () => {
  it('saves the statuses queued in one turn in one commit, and never over a record that moved on', async () => {
    const storage = memoryStorage()
    let commits = 0
    const counted = new Proxy(storage, {
      get: (target, property, receiver) =>
        property === 'transaction'
          ? (...args: Parameters<typeof storage.transaction>) => {
              commits++
              return target.transaction(...args)
            }
          : Reflect.get(target, property, receiver),
    })
    let ids = 0
    const ctx = { storage: counted, now: () => new Date(), newId: (prefix: string) => `${prefix}_${++ids}` }
    const [a, b, c, d] = [
      queued('tx_a', '0xa'),
      queued('tx_b', '0xb'),
      queued('tx_c', '0xc'),
      queued('tx_d', '0xd'),
    ]
    await storage.transaction([], async (tx) => {
      await tx.put('transactions', a!)
      await tx.put('transactions', b!)
      // Moved on before the batch is saved: confirmed by the tracker, and replaced by another signature.
      await tx.put('transactions', { ...c!, status: 'confirmed' } as unknown as TransactionRecord)
      await tx.put('transactions', { ...d!, hash: '0xd2' })
    })
    const before = commits
    for (const record of [a, b, c, d])
      queueSubmitted(ctx as unknown as AgentWalletContext, {
        ...record!,
        status: 'submitted',
        submittedAt: record!.updatedAt,
      })
    await settleSubmitted(counted)

    expect(commits - before).toBe(1)
    const status = async (id: string) => (await storage.get('transactions', id))?.status
    expect([await status('tx_a'), await status('tx_b'), await status('tx_c'), await status('tx_d')]).toEqual([
      'submitted',
      'submitted',
      'confirmed',
      'queued',
    ])
    const events = await storage.readEvents('default')
    expect(
      events.map((event) => [event.type, (event.data as { transactionId: string }).transactionId]),
    ).toEqual([
      ['tx.submitted', 'tx_a'],
      ['tx.submitted', 'tx_b'],
    ])
  })

  it('hands a batch its storage refused to onBackgroundError, and leaves the records queued and signed', async () => {
    const storage = memoryStorage()
    await storage.transaction([], (tx) => tx.put('transactions', queued('tx_e', '0xe')))
    const refusal = new Error('disk full')
    const refusing = new Proxy(storage, {
      get: (target, property, receiver) =>
        property === 'transaction' ? () => Promise.reject(refusal) : Reflect.get(target, property, receiver),
    })
    const heard: unknown[] = []
    const ctx = {
      storage: refusing,
      now: () => new Date(),
      options: { onBackgroundError: (error: unknown) => heard.push(error) },
    }
    const record = queued('tx_e', '0xe')
    queueSubmitted(ctx as unknown as AgentWalletContext, {
      ...record,
      status: 'submitted',
      submittedAt: record.updatedAt,
    })
    await settleSubmitted(refusing)
    expect(heard).toEqual([refusal])
    expect((await storage.get('transactions', 'tx_e'))?.status).toBe('queued')
  })
})

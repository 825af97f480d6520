import { randomBytes } from 'node:crypto'
import type { Principal, Storage, TransactionRecord } from '@agentwallet/core'
import { getAddress } from 'viem'

const batchSize = 5_000

/**
 * Inserts `count` wallet records shaped as core's createWallet writes them, through the storage port
 * in batches of 5,000 per transaction. They have no vault key: they exist to be counted, indexed and
 * listed, never to sign.
 */
export async function seedWallets(storage: Storage, owner: Principal, count: number, chain = 'devnet') {
  const ids: Array<{ id: string; address: string }> = []
  const base = Date.now() - count * 10
  // A prefix per call: seeding again (the next level) never reuses an id.
  const prefix = randomBytes(4).toString('hex')
  for (let start = 0; start < count; start += batchSize) {
    const size = Math.min(batchSize, count - start)
    await storage.transaction([], async (tx) => {
      for (let i = 0; i < size; i++) {
        const id = `wal_seed${prefix}${(start + i).toString(16).padStart(24, '0')}`
        const address = getAddress(`0x${randomBytes(20).toString('hex')}`)
        ids.push({ id, address })
        await tx.insert('wallets', {
          id,
          tenantId: owner.tenantId,
          ownerId: owner.id,
          createdAt: new Date(base + (start + i) * 10).toISOString(),
          address,
          agentName: `seed-${start + i}`,
          chain,
          source: 'created',
        })
      }
    })
  }
  return ids
}

/**
 * Inserts up to `total` confirmed transaction records spread round-robin over `wallets`, cloned
 * from a real record (`template`) with fresh ids, hashes, nonces and times, 10,000 per storage
 * transaction, stopping at `budgetMs`. Returns how many were written.
 */
export async function seedTransactions(
  storage: Storage,
  wallets: Array<{ id: string; address: string }>,
  template: TransactionRecord,
  total: number,
  budgetMs: number,
): Promise<{ written: number; ms: number }> {
  const started = performance.now()
  const base = Date.now() - total
  let written = 0
  while (written < total && performance.now() - started < budgetMs) {
    const size = Math.min(10_000, total - written)
    await storage.transaction([], async (tx) => {
      for (let i = 0; i < size; i++) {
        const n = written + i
        const wallet = wallets[n % wallets.length]!
        const at = new Date(base + n).toISOString()
        await tx.insert('transactions', {
          ...template,
          id: `tx_seed${n.toString(16).padStart(24, '0')}`,
          walletId: wallet.id,
          from: wallet.address,
          nonce: Math.floor(n / wallets.length),
          hash: `0x${randomBytes(32).toString('hex')}`,
          status: 'confirmed',
          blockNumber: 1 + n,
          createdAt: at,
          updatedAt: at,
          submittedAt: at,
          confirmedAt: at,
        } as TransactionRecord)
      }
    })
    written += size
  }
  return { written, ms: performance.now() - started }
}

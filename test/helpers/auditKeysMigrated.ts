import type { Storage } from '@agentwallet/core'
import { expect } from 'vitest'

/** The audit entry a storage test writes in the layout before event keys, as its JSON. */
export const entryBeforeKeys = { kind: 'policy.decision', subjects: { walletId: 'w7', approvalId: 'apr1' } }

/** After migration 3, the entry written before keys (seq 1 of `audit:default`) is found by each of its keys, and only by its own. */
export async function expectAuditKeysMigrated(storage: Pick<Storage, 'readEvents'>): Promise<void> {
  for (const key of ['kind:policy.decision', 'walletId:w7', 'approvalId:apr1'])
    expect((await storage.readEvents('audit:default', { key })).map((event) => event.seq)).toEqual([1])
  expect(await storage.readEvents('audit:default', { key: 'walletId:w8' })).toEqual([])
}

import type { Storage } from '@agentwallet/core'

/**
 * Appends `n` wallet.created events (wallet ids `wal_0` … `wal_<n-1>`) to the default tenant's log
 * in one commit, as a burst of creates would.
 */
export async function appendWalletEvents(storage: Storage, n: number, prefix = 'evt_test'): Promise<void> {
  await storage.transaction([], async (tx) => {
    for (let i = 0; i < n; i++)
      tx.appendEvent('default', {
        id: `${prefix}_${i}`,
        type: 'wallet.created',
        timestamp: new Date().toISOString(),
        data: {
          walletId: `wal_${i}`,
          address: '0x000000000000000000000000000000000000dEaD',
          chain: 'devnet',
        },
      })
  })
}

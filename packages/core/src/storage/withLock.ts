import type { Storage } from './types.js'

/**
 * Holds exclusive locks on `keys` while `fn` runs; `fn` commits its own steps with
 * `storage.transaction([], ...)`, each durable before the next begins.
 * @example await withLock(storage, [walletLockKey(address)], async () => { ... })
 */
export function withLock<T>(storage: Storage, keys: readonly string[], fn: () => Promise<T>): Promise<T> {
  return storage.transaction(keys, () => fn())
}

/** The lock every state change of one wallet takes: policy totals, reservations, nonces. */
export function walletLockKey(address: string): string {
  return `wallet:${address.toLowerCase()}`
}

/**
 * The lock of an agent key whose rules count one window over all its wallets: held with the wallet's
 * lock while a send is judged, so two wallets of the key cannot both spend what the window has left.
 */
export function agentLockKey(apiKeyId: string): string {
  return `agent:${apiKeyId}`
}

/**
 * The lock a smart wallet's own user operations take while one is prepared and signed (the session
 * account's funding, an intent's op): one owner op per EntryPoint nonce, one op per intent.
 */
export function userOperationLockKey(walletId: string): string {
  return `operation:${walletId}`
}

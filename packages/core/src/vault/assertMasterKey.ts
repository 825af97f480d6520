import { BaseError } from '../errors/baseError.js'
import type { Storage } from '../storage/types.js'
import { keyFingerprint } from './masterKey.js'
import { vaultKeysCollection } from './storageKeyRecordStore.js'

/** Where an unfinished master key rotation leaves its marker (one record, id `current`). */
export const masterKeyRotationCollection = 'master_key_rotation'

/** The marker a rotation writes before its first rewrite and deletes after its last. */
export type MasterKeyRotationRecord = {
  id: 'current'
  fromKeyId: string
  toKeyId: string
  startedAt: string
}

/** Records sampled per collection: enough to tell the store's key, cheap enough for every start. */
const sampleSize = 20

export type AssertMasterKeyParameters = {
  masterKey: Uint8Array
  /** Also check `vault_keys` (false when the caller brings its own vault, whose records are its own). */
  walletKeys: boolean
}

/**
 * Refuses to open a store with the wrong master key, before anything runs on it: `master_key_mismatch`
 * when a rotation is unfinished (run it again), or when records are sealed and none of a sample of
 * them is sealed under `masterKey`. Only public fingerprints (`mk1:…`) go into the error.
 * @example await assertMasterKey(storage, { masterKey, walletKeys: true })
 */
export async function assertMasterKey(
  storage: Storage,
  { masterKey, walletKeys }: AssertMasterKeyParameters,
): Promise<void> {
  const rotation = await storage.get(masterKeyRotationCollection, 'current')
  if (rotation) {
    throw new BaseError(
      'master_key_mismatch',
      'A master key rotation is unfinished: run `agentwallet rotate-master-key` (rotateMasterKey) again with the same keys to finish it',
      {
        details: { reason: 'rotation_unfinished', fromKeyId: rotation.fromKeyId, toKeyId: rotation.toKeyId },
      },
    )
  }
  const keyId = keyFingerprint(masterKey)
  const stored = new Set<string>()
  if (walletKeys) {
    const rows = await storage.query(vaultKeysCollection, {
      limit: sampleSize,
    })
    for (const { record } of rows) if (record.kind === 'envelope') stored.add(record.keyId)
  }
  const subscriptions = await storage.query('webhook_subscriptions', {
    limit: sampleSize,
  })
  for (const { sealedSecret } of subscriptions) if (sealedSecret) stored.add(sealedSecret.keyId)
  // Any match is enough: a store may hold a few records nobody can open (altered, or sealed by an
  // accident under another key), and those must not keep every other wallet from starting.
  if (stored.size > 0 && !stored.has(keyId)) {
    throw new BaseError(
      'master_key_mismatch',
      'The master key does not match the key the stored wallet keys and webhook secrets are sealed with',
      { details: { reason: 'wrong_master_key', keyId, storedKeyIds: [...stored] } },
    )
  }
}

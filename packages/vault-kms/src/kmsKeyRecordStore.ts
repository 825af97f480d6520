import { type KeyRecordStore, type Storage, storageKeyRecordStore } from '@agentwallet/core'
import { type KmsKeyRecord, kmsKeysCollection } from './kmsKeyRecord.js'

/**
 * Keeps a KMS vault's records (address → KMS key id) in Storage, collection `kms_keys`.
 * @example awsKmsKeyVault({ region: 'eu-west-1', store: kmsKeyRecordStore(storage) })
 */
export const kmsKeyRecordStore = (storage: Storage): KeyRecordStore<KmsKeyRecord> =>
  storageKeyRecordStore<KmsKeyRecord>(storage, kmsKeysCollection)

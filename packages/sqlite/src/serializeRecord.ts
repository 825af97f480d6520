import { BaseError, type StoredRecord } from '@agentwallet/core'

/**
 * A record as the JSON text stored in the `data` column; refuses what JSON cannot carry back.
 * @example serializeRecord('wallets', { id: 'w1', address: '0x…' })
 */
export const serializeRecord = (collection: string, record: StoredRecord): string => {
  if (typeof record?.id !== 'string') {
    throw new BaseError('validation_failed', `A record in "${collection}" needs a string id`, {
      details: { collection },
    })
  }
  try {
    return JSON.stringify(record)
  } catch (error) {
    // A bigint or a cycle: storing it would lose data, so say so before anything is buffered.
    throw new BaseError('validation_failed', `Record "${record.id}" in "${collection}" is not JSON`, {
      details: { collection, id: record.id },
      cause: error,
    })
  }
}

import { BaseError, type StoredRecord } from '@agentwallet/core'

/**
 * A record as the JSON text sent to the `data` column; refuses what jsonb cannot carry back.
 * @example serializeRecord('wallets', { id: 'w1', address: '0x…' })
 */
export const serializeRecord = (collection: string, record: StoredRecord): string => {
  if (typeof record?.id !== 'string') {
    throw new BaseError('validation_failed', `A record in "${collection}" needs a string id`, {
      details: { collection },
    })
  }
  let text: string
  try {
    text = JSON.stringify(record)
  } catch (error) {
    // A bigint or a cycle: storing it would lose data, so say so before anything is buffered.
    throw new BaseError('validation_failed', `Record "${record.id}" in "${collection}" is not JSON`, {
      details: { collection, id: record.id },
      cause: error,
    })
  }
  // jsonb rejects NUL in strings; failing here keeps the error on the write that caused it.
  if (/(?:^|[^\\])(?:\\\\)*\\u0000/.test(text)) {
    throw new BaseError(
      'validation_failed',
      `Record "${record.id}" in "${collection}" contains a NUL character`,
      {
        details: { collection, id: record.id },
      },
    )
  }
  return text
}

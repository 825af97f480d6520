import { createHash } from 'node:crypto'

/**
 * The 64-bit advisory lock id of a name within a schema, as a decimal string for a `bigint` parameter.
 * Computed here rather than with hashtextextended so the ids never depend on the server version;
 * the schema and a kind are hashed in so transaction keys, leader locks and the migration lock of
 * different schemas in one database never share a lock.
 * @example lockId('agentwallet', 'tx', 'wallet:0xabc') // '-4821…'
 */
export const lockId = (schema: string, kind: 'tx' | 'leader' | 'migrate', name: string): string =>
  createHash('sha256').update(`${schema}\u0000${kind}\u0000${name}`).digest().readBigInt64BE(0).toString()

/**
 * A plugin Storage: memory storage with an audit trail of every committed event batch, wrapping
 * the port rather than re-implementing it. A real adapter (Redis, DynamoDB…) implements the same
 * small interface and proves itself with `runStorageConformance` (see test/examples.test.ts).
 */
import { memoryStorage, type Storage, type StoredEvent } from '@agentwallet/core'

export function auditedStorage(audit: StoredEvent[] = []): Storage & { audit: StoredEvent[] } {
  const inner = memoryStorage({ name: 'audited-memory' })
  inner.onEvents((events) => audit.push(...events))
  return { ...inner, name: 'audited-memory', audit }
}

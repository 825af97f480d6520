const prefix = 'audit:'

/**
 * The event-log stream holding a tenant's trail. The log assigns seqs at commit, in commit order,
 * per stream, on every storage (Postgres: under the stream's counter row lock), so the chain is one
 * line per tenant across replicas without a lock of its own.
 * @example auditStream('default') // 'audit:default'
 */
export function auditStream(tenantId: string): string {
  return `${prefix}${tenantId}`
}

/** The tenant of an audit stream, or undefined for any other stream (a tenant's domain events). */
export function tenantOfAuditStream(stream: string): string | undefined {
  return stream.startsWith(prefix) ? stream.slice(prefix.length) : undefined
}

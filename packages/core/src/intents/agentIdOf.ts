/**
 * The agent id a payee claimed for itself (kept in an x402 intent's meta), for the identity rule.
 * @example agentIdOf(record.meta) // '42'
 */
export function agentIdOf(meta: Record<string, unknown> | undefined): string | undefined {
  const claimed = meta?.payeeAgentId
  return typeof claimed === 'string' ? claimed : undefined
}

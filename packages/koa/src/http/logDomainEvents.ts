import type { DomainEvent, EventBus, EventName } from '@agentwallet/core'
import type { Logger } from 'pino'

/** The events worth a log line, and its message. */
const messages: Partial<Record<EventName, string>> = {
  'tx.submitted': 'transaction submitted',
  'tx.confirmed': 'transaction confirmed',
  'tx.failed': 'transaction failed',
  'tx.reorged': 'transaction reorged',
  'policy.hitl': 'approval requested',
  'approval.resolved': 'approval decided',
}

/**
 * The fields of each logged event that name things: ids, chain, hash, status, block, rule. Never an
 * amount, an address, free text a person typed (a rejection reason) or anything signed.
 */
const fieldsByType: Partial<Record<EventName, readonly string[]>> = {
  'tx.submitted': ['transactionId', 'walletId', 'chain', 'kind', 'hash', 'replaces'],
  'tx.confirmed': ['transactionId', 'walletId', 'chain', 'kind', 'hash', 'blockNumber'],
  'tx.failed': ['transactionId', 'walletId', 'chain', 'kind', 'hash', 'blockNumber', 'reason'],
  'tx.reorged': ['transactionId', 'walletId', 'chain', 'kind', 'hash', 'blockNumber', 'blockHash'],
  'policy.hitl': ['approvalId', 'transactionId', 'walletId', 'chain', 'kind', 'ruleId', 'expiresAt'],
  'approval.resolved': ['approvalId', 'transactionId', 'walletId', 'resolution', 'resolvedBy', 'hash'],
}

/**
 * Writes one info line per transaction submitted, confirmed or failed and per approval requested
 * or decided, from the bus (core emits; the server logs). Returns the unsubscribe.
 * @example const stop = logDomainEvents(agentWallet.bus, logger)
 */
export function logDomainEvents(bus: EventBus, logger: Logger): () => void {
  const listener = (event: DomainEvent) => {
    const message = messages[event.type]
    if (!message) return
    const data = event.data as Record<string, unknown>
    const fields: Record<string, unknown> = {}
    for (const name of fieldsByType[event.type] ?? []) if (data[name] !== undefined) fields[name] = data[name]
    logger.info(
      { event: event.type, eventId: event.id, seq: event.seq, tenantId: event.tenantId, ...fields },
      message,
    )
  }
  bus.on('*', listener)
  return () => {
    bus.off('*', listener)
  }
}

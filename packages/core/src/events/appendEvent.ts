import type { AgentWalletContext } from '../context.js'
import type { EventName } from '../schemas/eventNames.js'
import type { StorageTx, StoredEvent } from '../storage/types.js'
import type { DomainEvent, EventPayloads } from './eventBus.js'

/**
 * Writes a domain event into the tenant's log inside the transaction that saves the state it
 * reports (outbox): it reaches the bus, WebSockets and webhooks only once that commit succeeds.
 * @example appendEvent(ctx, tx, wallet.tenantId, 'wallet.created', { walletId, address, chain, agentName })
 */
export function appendEvent<TName extends EventName>(
  ctx: Pick<AgentWalletContext, 'now' | 'newId'>,
  tx: StorageTx,
  tenantId: string,
  type: TName,
  data: EventPayloads[TName],
): void {
  tx.appendEvent(tenantId, { id: ctx.newId('evt'), type, timestamp: ctx.now().toISOString(), data })
}

/** The bus's view of a stored event (the stream is the tenant). */
export function toDomainEvent(event: StoredEvent): DomainEvent {
  return {
    id: event.id,
    type: event.type as EventName,
    tenantId: event.stream,
    seq: event.seq,
    timestamp: event.timestamp,
    data: event.data as DomainEvent['data'],
  }
}

/**
 * The one table of domain events: the canonical (WebSocket) name and its webhook spelling.
 * Both channels carry the same envelope `{ id, type, seq, timestamp, data }`.
 */
export const eventNames = {
  'wallet.created': 'wallet_created',
  'tx.submitted': 'tx_submitted',
  'tx.confirmed': 'tx_confirmed',
  'tx.failed': 'tx_failed',
  'tx.stuck': 'tx_stuck',
  'tx.reorged': 'tx_reorged',
  'tx.effects_differed': 'tx_effects_differed',
  'policy.blocked': 'policy_blocked',
  'policy.hitl': 'hitl_requested',
  'approval.resolved': 'approval_resolved',
  'identity.registered': 'identity_registered',
  'ens.registered': 'ens_registered',
  'multisig.proposed': 'multisig_proposed',
  'multisig.executed': 'multisig_executed',
  'payment.settled': 'payment_settled',
  'payment.settled_without_delivery': 'payment_settled_without_delivery',
  'operation.failed': 'operation_failed',
  'webhook.disabled': 'webhook_disabled',
  'key.revoked': 'key_revoked',
  'agent.activity': 'agent_activity',
} as const

export type EventName = keyof typeof eventNames
export type WebhookEventName = (typeof eventNames)[EventName]

/**
 * Events about the tenant's administration, not its money: on the WebSocket only admin keys see
 * them (approvers and agents never learn of other keys); webhooks, which only admins subscribe, get them.
 */
const adminOnlyEvents: ReadonlySet<EventName> = new Set<EventName>(['key.revoked'])

/**
 * True for an event only admin keys may see on the WebSocket.
 * @example if (isAdminOnlyEvent(event.type) && principal.role !== 'admin') return
 */
export function isAdminOnlyEvent(name: string): boolean {
  return adminOnlyEvents.has(name as EventName)
}

const byWebhookName = new Map<string, EventName>(
  Object.entries(eventNames).map(([canonical, webhook]) => [webhook, canonical as EventName]),
)

/** Canonical name for either spelling, or undefined when the name is unknown. */
export function toCanonicalEventName(name: string): EventName | undefined {
  if (name in eventNames) return name as EventName
  return byWebhookName.get(name)
}

/** The webhook spelling of a canonical event name. */
export function toWebhookEventName(name: EventName): WebhookEventName {
  return eventNames[name]
}

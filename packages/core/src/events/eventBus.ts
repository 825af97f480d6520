import { EventEmitter } from 'eventemitter3'
import type { StoredEffect, StoredEffects } from '../effects/types.js'
import type { EventName } from '../schemas/eventNames.js'

/**
 * A domain event as stored in the event log and delivered to WebSocket clients and webhooks.
 * `seq` increases monotonically per tenant (the log's stream); `id` is stable across redeliveries.
 */
export type DomainEvent<TName extends EventName = EventName> = {
  id: string
  type: TName
  tenantId: string
  seq: number
  timestamp: string
  data: EventPayloads[TName]
}

type TxPayload = {
  transactionId: string
  walletId: string
  chain: string
  from: string
  to: string
  hash?: string | undefined
  status: string
  [key: string]: unknown
}

/** The payload of each event, by canonical name. Documented with examples in docs/events.md. */
export type EventPayloads = {
  'wallet.created': { walletId: string; address: string; chain: string; agentName: string }
  /** Also for a replacement of a stuck tx (same nonce, higher fees): `replaces` is the hash it replaces. */
  'tx.submitted': TxPayload & { replaces?: string | undefined; cancels?: true | undefined }
  /** `recovered`: the tx had been reported `failed` (its broadcast's answer was lost), and the chain shows it mined. */
  'tx.confirmed': TxPayload & { blockNumber: number; recovered?: boolean | undefined }
  'tx.failed': TxPayload & { reason: string }
  /** The tracker stopped raising its fees (`reason`: `fee_cap_reached` or `insufficient_funds`). */
  'tx.stuck': TxPayload & {
    since: string
    reason: string
    maxFeePerGas: string
    neededMaxFeePerGas: string
    capMaxFeePerGas: string
  }
  /** A mined tx whose block left the canonical chain: back to `submitted`, broadcast again. */
  'tx.reorged': TxPayload & { blockNumber: number; blockHash?: string | undefined }
  /** Its receipt shows effects the prediction had not (`unexpected`), or not those it had (`missing`). */
  'tx.effects_differed': TxPayload & {
    blockNumber: number
    missing: StoredEffect[]
    unexpected: StoredEffect[]
  }
  'policy.blocked': TxPayload & { ruleId?: string | undefined; reason: string }
  'policy.hitl': TxPayload & {
    approvalId: string
    expiresAt: string
    ruleId?: string | undefined
    reason: string
    /** What the approver is asked to let happen (absent for an intent made before effects). */
    effects?: StoredEffects | undefined
    /** The same in one line, the largest outflow first (`effectsHeadline`): "Allow 0x… to spend 500 USDC (≈ $500)". */
    headline?: string | undefined
  }
  'approval.resolved': {
    approvalId: string
    transactionId: string
    walletId: string
    resolution: 'approved' | 'rejected' | 'expired'
    resolvedBy?: string | undefined
    reason?: string | undefined
    hash?: string | undefined
  }
  'identity.registered': {
    agentId: string
    chain: string
    chainId: number
    /** `eip155:{chainId}:{registry}` */
    agentRegistry: string
    walletId: string
    walletAddress: string
    ownerAddress: string
    agentName: string
    agentType: string
    hash?: string | undefined
  }
  'ens.registered': {
    registrationId: string
    name: string
    chain: string
    walletId: string
    owner: string
    /** Unix seconds when the registration expires. */
    expires?: number | undefined
    rentWei: string
    hash?: string | undefined
    reverseName: boolean
  }
  'multisig.proposed': {
    proposalId: string
    safeAddress: string
    chain: string
    safeTxHash: string
    proposer: string
    to: string
    /** Wei, as a decimal string. */
    value: string
    nonce: string
  }
  'multisig.executed': {
    proposalId: string
    safeAddress: string
    chain: string
    safeTxHash: string
    transactionId?: string | undefined
    hash?: string | undefined
    status: 'executed' | 'failed'
    success: boolean
  }
  /** An x402 payment the resource server settled: `hash` is the settlement tx from `PAYMENT-RESPONSE`. */
  'payment.settled': TxPayload & {
    payee: string
    /** The URL of the paid resource. */
    resource: string
    /** CAIP-2, e.g. `eip155:8453`. */
    network: string
  }
  /**
   * An x402 payment its payee took on chain (beside `payment.settled`, same commit) while the resource
   * answered an error or nothing: `responseStatus` is the resource's HTTP status (null: no answer).
   */
  'payment.settled_without_delivery': TxPayload & {
    payee: string
    resource: string
    network: string
    responseStatus: number | null
    reason: string
  }
  /**
   * A multi-step operation (an ENS or identity registration, a tracked swap) ended `failed`: the
   * step it was on and the error its record keeps. (`operation` is spelled out: events sit below
   * operations and import nothing from them.)
   */
  'operation.failed': {
    operation: 'ens' | 'identity' | 'swap'
    /** The record's id: `ens_…`, `idn_…` or `swp_…`. */
    operationId: string
    walletId: string
    step: string
    error: { code: string; message: string }
  }
  'webhook.disabled': { subscriptionId: string; url: string; reason: string }
  /**
   * An API key was revoked: every replica closes that key's open WebSockets (4401). Admins only.
   * (`role` is spelled out: events sit below principals and import nothing from them.)
   */
  'key.revoked': { keyId: string; name: string; role: 'agent' | 'approver' | 'admin'; revokedBy: string }
  'agent.activity': Record<string, unknown>
}

export type EventListeners = {
  [TName in EventName]: (event: DomainEvent<TName>) => void
} & {
  /** Every event, whatever its name. */
  '*': (event: DomainEvent) => void
}

/**
 * The typed in-process event bus. Core emits only after the state an event reports is saved.
 * @example bus.on('tx.confirmed', (event) => console.log(event.data.hash))
 */
export class EventBus extends EventEmitter<EventListeners> {
  /**
   * Emits under the event's own name, then under '*'. A subscriber's throw goes to `onError` (with
   * none, the first escapes after both emits); it ends that name's emit, but '*' subscribers (the
   * WebSocket stream, the logs) still hear the event.
   */
  publish(event: DomainEvent, onError?: (error: unknown) => void): void {
    const failures: unknown[] = []
    for (const name of [event.type, '*']) {
      try {
        ;(this.emit as (name: string, event: DomainEvent) => boolean)(name, event)
      } catch (error) {
        failures.push(error)
      }
    }
    if (onError) for (const failure of failures) onError(failure)
    else if (failures.length > 0) throw failures[0]
  }
}

export { BaseError, isAgentWalletError, type BaseErrorParameters } from './errors/baseError.js'
export { errorCodes, type ErrorCode } from './errors/errorCodes.js'
export {
  ChainUnavailableError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  NotImplementedError,
  PolicyBlockedError,
  ValidationError,
} from './errors/errors.js'
export { EventBus, type DomainEvent, type EventListeners, type EventPayloads } from './events/eventBus.js'
export {
  eventNames,
  toCanonicalEventName,
  toWebhookEventName,
  type EventName,
  type WebhookEventName,
} from './events/eventNames.js'
export * from './storage/types.js'
export * from './vault/types.js'
export * from './chain/types.js'
export * from './policy/types.js'

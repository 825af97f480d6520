import { BaseError, type BaseErrorParameters } from './baseError.js'

/** Input that breaks a rule of its schema. `details.issues` lists each failing path. */
export class ValidationError extends BaseError {
  override name = 'ValidationError'
  static readonly code = 'validation_failed'
  constructor(message: string, parameters?: BaseErrorParameters) {
    super('validation_failed', message, parameters)
  }
}

/** A record that does not exist, or that the caller may not see (no existence leak). */
export class NotFoundError extends BaseError {
  override name = 'NotFoundError'
  static readonly code = 'not_found'
  constructor(what: string, parameters?: BaseErrorParameters) {
    super('not_found', `${what} not found`, parameters)
  }
}

/** The policy engine refused the intent; `details` names the rule and the numbers. */
export class PolicyBlockedError extends BaseError {
  override name = 'PolicyBlockedError'
  static readonly code = 'policy_blocked'
  constructor(message: string, parameters?: BaseErrorParameters) {
    super('policy_blocked', message, parameters)
  }
}

export class ForbiddenError extends BaseError {
  override name = 'ForbiddenError'
  static readonly code = 'forbidden'
  constructor(message: string, parameters?: BaseErrorParameters) {
    super('forbidden', message, parameters)
  }
}

export class ConflictError extends BaseError {
  override name = 'ConflictError'
  static readonly code = 'conflict'
  constructor(message: string, parameters?: BaseErrorParameters) {
    super('conflict', message, parameters)
  }
}

/**
 * The chain's RPC could not be reached, did not answer, or would not serve the request now (rate
 * limit): retry later. `chain` is undefined only where the failing chain is not known (`callOperation`).
 */
export class ChainUnavailableError extends BaseError {
  override name = 'ChainUnavailableError'
  static readonly code = 'chain_unavailable'
  constructor(chain: string | undefined, parameters?: BaseErrorParameters) {
    super(
      'chain_unavailable',
      chain === undefined ? 'The chain is unavailable' : `Chain "${chain}" is unavailable`,
      parameters,
    )
  }
}

/** A capability whose implementation has not landed yet. Never a fake result. */
export class NotImplementedError extends BaseError {
  override name = 'NotImplementedError'
  static readonly code = 'not_implemented'
  constructor(feature: string, parameters?: BaseErrorParameters) {
    super('not_implemented', `${feature} is not implemented yet`, parameters)
  }
}

/**
 * An approved intent would now do more than its approver saw (more out, another counterparty): it
 * was not sent, and a new approval with the new effects waits (`details.approvalId`).
 */
export class EffectsChangedError extends BaseError {
  override name = 'EffectsChangedError'
  static readonly code = 'effects_changed'
  constructor(message: string, parameters?: BaseErrorParameters) {
    super('effects_changed', message, parameters)
  }
}

/**
 * A wallet or chain of a family (`evm`, `solana`) the operation does not serve: ENS, identity, Safe or
 * swaps on a Solana wallet. `details` names the family and the families served.
 */
export class UnsupportedChainFamilyError extends BaseError {
  override name = 'UnsupportedChainFamilyError'
  static readonly code = 'unsupported_chain_family'
  constructor(message: string, parameters?: BaseErrorParameters) {
    super('unsupported_chain_family', message, parameters)
  }
}

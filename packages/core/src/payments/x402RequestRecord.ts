import type { PaymentRequired, PaymentRequirements } from '@x402/core/types'
import type { ResourceRequest } from './fetchResource.js'
import type { ResourceResponse } from './payAndFetchSchema.js'

/**
 * What an x402 payment needs beyond its intent (collection `x402_requests`, keyed by the
 * transaction id): the request to send again with the payment (its headers may hold the resource's
 * credentials: never shown), the requirement paid and, once done, the resource's answer and outcome.
 */
export type X402RequestRecord = {
  id: string
  tenantId: string
  request: ResourceRequest
  paymentRequired: PaymentRequired
  requirement: PaymentRequirements
  response?: ResourceResponse | undefined
  /**
   * What the request carrying the payment got, written as soon as it is known (before the chain is
   * asked): whether the resource was delivered, its HTTP status (null: no answer) and why not.
   */
  outcome?: PaymentOutcome | undefined
}

/** Whether a paid request got its resource: a 2xx/3xx with a settlement the payee called a success. */
export type PaymentOutcome = { delivered: boolean; status: number | null; reason?: string | undefined }

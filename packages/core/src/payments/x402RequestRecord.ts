import type { PaymentRequired, PaymentRequirements } from '@x402/core/types'
import type { ResourceRequest } from './fetchResource.js'
import type { ResourceResponse } from './payAndFetchSchema.js'

/**
 * What an x402 payment needs beyond its intent (collection `x402_requests`, keyed by the
 * transaction id): the request to send again with the payment (its headers may hold the resource's
 * credentials: never shown), the requirement paid and, once done, the resource's answer.
 */
export type X402RequestRecord = {
  id: string
  tenantId: string
  request: ResourceRequest
  paymentRequired: PaymentRequired
  requirement: PaymentRequirements
  response?: ResourceResponse | undefined
}

export type { CallOptions, ContractName as OperationName } from '@agentwallet/core/contract'
// What a transaction does in one line, from its effects: the server's `headline`, for a page to name addresses its way.
export {
  effectLine,
  effectsHeadline,
  type HeadlineEffect,
  type HeadlineEffects,
  type HeadlineOptions,
  orderEffects,
} from '@agentwallet/core/contract'
export {
  AgentWalletHttpError,
  type ClientErrorCode,
  type EdgeErrorCode,
  type OperationError,
  type TransportErrorCode,
  toHttpError,
} from './agentWalletHttpError.js'
export {
  type AgentWalletClient,
  type ClientOptions,
  createClient,
  type EdgeMethods,
  type RequestOptions,
} from './createClient.js'
export type { ChainInfo, HealthAnswer, OnboardingAnswer, OpenApiDocument } from './edgeAnswers.js'
export type { OperationMethod, OperationMethods } from './operationMethods.js'
export type { QueryValue } from './toHttpRequest.js'

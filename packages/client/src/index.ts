export type {
  CallOptions,
  OperationMethod,
  OperationMethods,
  OperationName,
} from '@agentwallet/core'
export { AgentWalletHttpError } from './agentWalletHttpError.js'
export {
  type AgentWalletClient,
  type ClientOptions,
  createClient,
  type EdgeMethods,
  type RequestOptions,
} from './createClient.js'
export type { ChainInfo, HealthAnswer, OnboardingAnswer, OpenApiDocument } from './edgeAnswers.js'
export type { QueryValue } from './toHttpRequest.js'

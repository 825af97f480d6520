export { AgentWalletHttpError } from './agentWalletHttpError.js'
export { type AgentWalletClient, type ClientOptions, createClient } from './createClient.js'
export type * from './types.js'

export { AgentWalletHttpError } from './agentWalletHttpError.js'
export { createClient, type AgentWalletClient, type ClientOptions } from './createClient.js'
export type * from './types.js'

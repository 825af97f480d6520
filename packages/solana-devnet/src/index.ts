export { blockhashAt, solanaDevnetGenesisHash } from './blockhashAt.js'
export type { SolanaDevnetMint } from './createGenesis.js'
export { solanaDevnetMethods } from './createRpcHandler.js'
export { blockhashLifetime } from './createSolanaChain.js'
export {
  type CreateSolanaDevnetOptions,
  createSolanaDevnet,
  type SolanaDevnet,
} from './createSolanaDevnet.js'
export type { SolanaDevnetServer, SolanaServeOptions } from './serveSolanaDevnet.js'
export type { SolanaDevnetAddressBook } from './solanaDevnetAddressBook.js'
export { solanaDevnetPrices, solanaDevnetTokens } from './solanaDevnetTokens.js'
export { SolanaRpcError } from './solanaRpcError.js'

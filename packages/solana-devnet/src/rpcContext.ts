import type { Faucet } from './createFaucet.js'
import type { SolanaChain } from './createSolanaChain.js'
import type { SolanaDevnetAddressBook } from './solanaDevnetAddressBook.js'

/** What the RPC methods answer from. */
export type RpcContext = { chain: SolanaChain; faucet: Faucet; addressBook: SolanaDevnetAddressBook }

/** A JSON-RPC method: params in (JSON numbers as bigints), a JSON-able result (bigints allowed) out. */
export type RpcMethod = (context: RpcContext, params: readonly unknown[]) => unknown

/** `{ context: { slot }, value }`: the envelope of the methods that answer "as of a slot". */
export const atSlot = (chain: SolanaChain, value: unknown) => ({
  context: { slot: chain.height() },
  value,
})

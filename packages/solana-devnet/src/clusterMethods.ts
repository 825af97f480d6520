import { solanaDevnetGenesisHash } from './blockhashAt.js'
import { atSlot, type RpcMethod } from './rpcContext.js'
import { addressParam, integerParam } from './rpcParams.js'
import { invalidParam } from './solanaRpcError.js'

const slotsPerEpoch = 432_000n

export const clusterMethods: Record<string, RpcMethod> = {
  getLatestBlockhash: ({ chain }) => atSlot(chain, chain.latestBlockhash()),
  isBlockhashValid: ({ chain }, params) => atSlot(chain, chain.isBlockhashValid(String(params[0]))),
  getSlot: ({ chain }) => chain.height(),
  // One block per slot: no slot is ever skipped on the devnet.
  getBlockHeight: ({ chain }) => chain.height(),
  getEpochInfo: ({ chain }) => {
    const slot = chain.height()
    return {
      absoluteSlot: slot,
      blockHeight: slot,
      epoch: slot / slotsPerEpoch,
      slotIndex: slot % slotsPerEpoch,
      slotsInEpoch: slotsPerEpoch,
      transactionCount: chain.ledger.count(),
    }
  },
  getTransactionCount: ({ chain }) => chain.ledger.count(),
  getVersion: () => ({
    'solana-core': '0.0.0-litesvm.1.5.0',
    'feature-set': 0,
    'agentwallet-devnet': 'litesvm 1.5.0',
  }),
  getHealth: () => 'ok',
  getGenesisHash: () => solanaDevnetGenesisHash,
  getIdentity: ({ faucet }) => ({ identity: faucet.address }),
  // Devnet-only methods, named like the EVM devnet's `agentwallet_addressBook`.
  agentwallet_addressBook: ({ addressBook }) => structuredClone(addressBook),
  agentwallet_mintTokens: async ({ faucet }, params) => {
    const [owner, mint] = [addressParam(params, 0), params[1]]
    if (typeof mint !== 'string') throw invalidParam('expected a mint address or symbol')
    return faucet.mintTokens(mint, owner, integerParam(params, 2))
  },
  agentwallet_advanceBlocks: ({ chain }, params) => {
    const blocks = params.length > 0 ? integerParam(params, 0) : 1n
    if (blocks > 10_000n) throw invalidParam('at most 10,000 blocks a call')
    chain.advance(blocks)
    return atSlot(chain, chain.latestBlockhash())
  },
}

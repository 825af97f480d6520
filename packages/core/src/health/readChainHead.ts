import type { ChainProvider, RpcEndpoint } from '../chain/types.js'
import { BaseError } from '../errors/baseError.js'

/** A chain's latest block: its number (a Solana chain's block height) and time when the chain says it. */
export type ChainHead = { number: bigint; timestamp?: bigint | undefined }

/**
 * The head of the chain `name`, of either family: an EVM chain's latest block, a Solana chain's block
 * height (`getBlockHeight`; no time: that would be another call per probe).
 * @example const head = await readChainHead(ctx.chains, 'solana')
 */
export async function readChainHead(chains: ChainProvider, name: string): Promise<ChainHead> {
  const info = chains.list().find((chain) => chain.name === name)
  if (info?.family === 'solana') {
    if (!chains.solana) throw new BaseError('unsupported_chain', `Chain "${name}" has no Solana handle`)
    return { number: await chains.solana(name).rpc.getBlockHeight().send() }
  }
  return chains.get(name).client.getBlock()
}

/** Each configured RPC URL of the chain `name` on its own (EVM chains configured by URL); else undefined. */
export function rpcEndpointsOf(chains: ChainProvider, name: string): readonly RpcEndpoint[] | undefined {
  const info = chains.list().find((chain) => chain.name === name)
  return info?.family === 'solana' ? undefined : chains.get(name).rpcs
}

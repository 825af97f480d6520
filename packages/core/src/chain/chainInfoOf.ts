import { BaseError } from '../errors/baseError.js'
import type { ChainFamily } from '../vault/types.js'
import type { ChainInfo, ChainProvider } from './types.js'

/**
 * The facts of the chain `name`, of either family, with its family filled in (`evm` when a provider
 * leaves it out); `unsupported_chain` when it is not configured.
 * @example const { family } = chainInfoOf(ctx.chains, input.chain ?? ctx.chains.defaultChain)
 */
export function chainInfoOf(chains: ChainProvider, name: string): ChainInfo & { family: ChainFamily } {
  const all = chains.list()
  const info = all.find((chain) => chain.name === name)
  if (!info) {
    throw new BaseError('unsupported_chain', `Chain "${name}" is not configured`, {
      details: { chain: name, supported: all.map((chain) => chain.name) },
    })
  }
  return { ...info, family: info.family ?? 'evm' }
}

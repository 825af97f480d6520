import { defaultFinalityDepth } from '../chain/defaultFinalityDepth.js'
import type { ChainInfo } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'

/**
 * Blocks after which a tx mined on `chain` is final: the chain's own setting, else the global
 * `finalityDepth`, else the chain id's default. At least 1 (a tx in the head block is mined).
 * @example const depth = finalityDepthOf(ctx, chain)
 */
export function finalityDepthOf(
  ctx: Pick<AgentWalletContext, 'options'>,
  chain: Pick<ChainInfo, 'chainId' | 'finalityDepth'>,
): number {
  const depth = chain.finalityDepth ?? ctx.options.finalityDepth ?? defaultFinalityDepth(chain.chainId)
  return Math.max(1, Math.floor(depth))
}

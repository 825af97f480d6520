import type { Address } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { parseInput } from '../schemas/parseInput.js'
import { addressSchema } from '../schemas/primitives.js'
import type { MultisigWalletRecord } from './multisigTypes.js'

/**
 * The Safe's checksummed address and its chain: the one named, else the chain we deployed it on,
 * else `fallbackChain` (the acting wallet's), else the default chain.
 */
export async function locateSafe(
  ctx: AgentWalletContext,
  principal: Principal,
  safeAddress: string,
  named: string | undefined,
  fallbackChain?: string | undefined,
): Promise<{ safe: Address; chain: ChainHandle; record?: MultisigWalletRecord | undefined }> {
  const safe = parseInput(addressSchema, safeAddress)
  const [record] = await ctx.storage.query('multisig_wallets', {
    where: { tenantId: principal.tenantId, address: safe },
    limit: 1,
  })
  const chain = ctx.chains.get(named ?? record?.chain ?? fallbackChain ?? ctx.chains.defaultChain)
  return { safe, chain, record: record?.chain === chain.name ? record : undefined }
}

/** The lock every change of one proposal takes (signatures, execution, settlement). */
export function proposalLockKey(safe: Address, safeTxHash: string): string {
  return `multisig:${safe.toLowerCase()}:${safeTxHash.toLowerCase()}`
}

import type { Address } from 'viem'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import type { StorageReader } from '../storage/types.js'

/** A nonce allocated to a tx about to be signed, and the id of the record that counts them. */
export type Allocated = { nonceId: string; nonce: number }

/**
 * The next nonce of (chain, address): the higher of what we allocated and what the node counts as
 * pending, so a send made elsewhere is skipped over, and a signed tx we still owe the node keeps
 * its slot. The caller holds the wallet lock and persists `next` with the signed tx.
 */
export async function allocateNonce(
  ctx: Pick<AgentWalletContext, 'storage'>,
  chain: ChainHandle,
  address: Address,
  reader: StorageReader = ctx.storage,
): Promise<Allocated> {
  const nonceId = nonceIdOf(chain.chainId, address)
  const [stored, pending] = await Promise.all([
    reader.get('nonces', nonceId),
    chain.client.getTransactionCount({ address, blockTag: 'pending' }).catch((error: unknown) => {
      throw toChainError(error, chain.name, { read: true })
    }),
  ])
  return { nonceId, nonce: Math.max(stored?.next ?? 0, pending) }
}

/** The id of the `nonces` record of (chain, address). */
export function nonceIdOf(chainId: number, address: Address): string {
  return `${chainId}:${address.toLowerCase()}`
}

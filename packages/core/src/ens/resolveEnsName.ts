import { type Address, namehash, zeroAddress } from 'viem'
import type { z } from 'zod'
import { ensRegistryAbi, ensResolverAbi } from '../chain/ensAbis.js'
import { isRevert, toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { NotFoundError } from '../errors/errors.js'
import { ensContractsOf } from './ensContractsOf.js'
import type { resolveEnsSchema, reverseEnsSchema } from './ensSchemas.js'
import { parseEnsName } from './parseEnsName.js'

export type ResolveEnsNameReturnType = { name: string; address: Address; resolver: Address; chain: string }

/**
 * Resolves a name through the registry and its resolver (registry.resolver → resolver.addr), with
 * no UniversalResolver needed. A name with no resolver or no address is `not_found`.
 * @example const { address } = await resolveEnsName(ctx, principal, { name: 'vitalik.eth' })
 */
export async function resolveEnsName(
  ctx: Pick<AgentWalletContext, 'chains'>,
  _principal: unknown,
  input: z.output<typeof resolveEnsSchema>,
): Promise<ResolveEnsNameReturnType> {
  const parsed = parseEnsName(input.name)
  const chain = ctx.chains.get(input.chain ?? ctx.chains.defaultChain)
  const found = await lookup(chain, parsed.node, 'addr')
  if (!found) throw new NotFoundError('ENS name', { details: { name: parsed.name, chain: chain.name } })
  return { name: parsed.name, address: found.value as Address, resolver: found.resolver, chain: chain.name }
}

export type ReverseEnsNameReturnType = { address: Address; name: string; chain: string }

/**
 * The primary (reverse) name of an address: `<addr>.addr.reverse` → resolver.name. The name is
 * checked forward too (it must resolve back to the address), as ENS clients do.
 * @example const { name } = await reverseEnsName(ctx, principal, { address: '0x…' })
 */
export async function reverseEnsName(
  ctx: Pick<AgentWalletContext, 'chains'>,
  _principal: unknown,
  input: z.output<typeof reverseEnsSchema>,
): Promise<ReverseEnsNameReturnType> {
  const checksummed = input.address
  const chain = ctx.chains.get(input.chain ?? ctx.chains.defaultChain)
  const node = namehash(`${checksummed.slice(2).toLowerCase()}.addr.reverse`)
  const found = await lookup(chain, node, 'name')
  const name = found?.value as string | undefined
  const forward = name ? await lookup(chain, namehash(name), 'addr') : undefined
  if (!name || (forward?.value as string | undefined)?.toLowerCase() !== checksummed.toLowerCase()) {
    throw new NotFoundError('Reverse ENS name', { details: { address: checksummed, chain: chain.name } })
  }
  return { address: checksummed, name, chain: chain.name }
}

async function lookup(
  chain: ChainHandle,
  node: `0x${string}`,
  record: 'addr' | 'name',
): Promise<{ resolver: Address; value: string } | undefined> {
  const { registry } = ensContractsOf(chain)
  try {
    const resolver = await chain.client.readContract({
      address: registry,
      abi: ensRegistryAbi,
      functionName: 'resolver',
      args: [node],
    })
    if (resolver === zeroAddress) return undefined
    const value = await chain.client.readContract({
      address: resolver,
      abi: ensResolverAbi,
      functionName: record,
      args: [node],
    })
    if (!value || value === zeroAddress) return undefined
    return { resolver, value }
  } catch (error) {
    // A resolver that does not implement the record reverts: the name has no such record.
    if (isRevert(error)) return undefined
    throw toChainError(error, chain.name, { read: true })
  }
}

import type { AgentWalletContext } from '../context.js'
import { UnsupportedChainFamilyError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import type { ChainFamily, OperationContract } from '../schemas/defineContract.js'
import { canSee } from '../wallets/findWallet.js'

const evmOnly: readonly ChainFamily[] = ['evm']

/**
 * Refuses an operation on a chain of a family it does not declare (`families`, default `evm`): the
 * call's `chain`, else its `wallet`'s chain, decides. Asked once, before the action, so no action
 * tests a wallet's family; a server with chains of one family only asks nothing.
 * @example await assertFamilyServed(ctx, principal, operations.registerEnsName, { wallet })
 */
export async function assertFamilyServed(
  ctx: Pick<AgentWalletContext, 'chains' | 'storage'>,
  principal: Principal,
  operation: Pick<OperationContract, 'name' | 'families'>,
  input: unknown,
): Promise<void> {
  const served = operation.families ?? evmOnly
  const fields = (input ?? {}) as { chain?: unknown; wallet?: unknown }
  // An operation about no chain and no wallet (API keys, webhooks) is family-neutral.
  if (typeof fields.chain !== 'string' && typeof fields.wallet !== 'string') return
  const chains = ctx.chains.list()
  if (chains.every((chain) => served.includes(chain.family ?? 'evm'))) return
  const chainName = await targetChainOf(ctx, principal, fields)
  const chain = chains.find((known) => known.name === chainName)
  const family = chain?.family ?? 'evm'
  if (!chain || served.includes(family)) return
  throw new UnsupportedChainFamilyError(
    `${operation.name} serves ${served.join(' and ')} chains; ${chain.name} is a ${family} chain`,
    { details: { operation: operation.name, chain: chain.name, family, families: served } },
  )
}

/** The chain a call is about: its `chain` field, else the chain of the wallet it names (when visible). */
async function targetChainOf(
  ctx: Pick<AgentWalletContext, 'storage'>,
  principal: Principal,
  fields: { chain?: unknown; wallet?: unknown },
): Promise<string | undefined> {
  if (typeof fields.chain === 'string') return fields.chain
  if (typeof fields.wallet !== 'string') return undefined
  const [wallet] = await ctx.storage.query('wallets', { where: { address: fields.wallet }, limit: 1 })
  return wallet && canSee(principal, wallet) ? wallet.chain : undefined
}

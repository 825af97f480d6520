import { sponsoredGasSince } from '../bundler/sponsoredGasSince.js'
import { toChainError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import { isAgentWalletError } from '../errors/baseError.js'
import type { Wallet, WalletRecord } from './types.js'

/** The window the wallet view reports sponsored gas over. */
const window = 24 * 60 * 60 * 1000

/**
 * What the tenant's paymaster paid for a smart wallet's ops in the last 24 hours (wei, from the
 * EntryPoint's `UserOperationEvent` logs of its session account); undefined for a wallet no paymaster
 * serves, or while the chain cannot be read (the view is still answered).
 * @example const sponsoredGas = await sponsoredGasOf(ctx, record)
 */
export async function sponsoredGasOf(
  ctx: AgentWalletContext,
  record: WalletRecord,
): Promise<NonNullable<Wallet['smart']>['sponsoredGas']> {
  const paymaster = record.smart && ctx.paymasterOf?.(record.tenantId, record.chain)
  const chain = ctx.chains.get(record.chain)
  const entryPoint = chain.contracts.accountAbstraction?.entryPoint
  if (!record.smart || !paymaster || !entryPoint) return undefined
  const since = new Date(ctx.now().getTime() - window)
  try {
    const spent = await sponsoredGasSince(chain.client, {
      entryPoint,
      paymaster: paymaster.address,
      sender: record.smart.sessionKey,
      since,
    }).catch((error: unknown) => {
      throw toChainError(error, chain.name, { read: true })
    })
    return { paymaster: paymaster.address, spent: spent.toString(), since: since.toISOString() }
  } catch (error) {
    if (isAgentWalletError(error, 'chain_unavailable')) return undefined
    throw error
  }
}

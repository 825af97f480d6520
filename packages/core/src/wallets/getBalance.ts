import { type Address, erc20Abi, formatUnits } from 'viem'
import type { z } from 'zod'
import { resolveAsset } from '../chain/resolveAsset.js'
import { toChainError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { formatSolanaBalance, readSolanaBalance } from '../solana/readSolanaBalance.js'
import { solanaChainOf } from '../solana/solanaChainOf.js'
import type { ChainFamily } from '../vault/types.js'
import { findWallet } from './findWallet.js'
import type { WalletRecord } from './types.js'
import { walletChainOf } from './walletChainOf.js'
import type { balanceQuerySchema, balanceSchema } from './walletSchemas.js'

export type GetBalanceParameters = z.input<typeof balanceQuerySchema> & { wallet: string }
export type GetBalanceReturnType = z.infer<typeof balanceSchema>
export type TokenBalance = GetBalanceReturnType['tokens'][number]

/**
 * Native and ERC-20 balances of a wallet: the chain's known tokens plus any asked for.
 * @example const { eth, tokens } = await getBalance(ctx, principal, { wallet: address, chain: 'devnet' })
 */
export async function getBalance(
  ctx: AgentWalletContext,
  principal: Principal,
  query: z.output<typeof balanceQuerySchema> & { wallet: Address },
): Promise<GetBalanceReturnType> {
  const wallet = await findWallet(ctx, principal, query.wallet)
  const family = walletChainOf(ctx.chains, wallet, query.chain).family
  return balanceOf[family](ctx, wallet, query)
}

type BalanceReader = (
  ctx: AgentWalletContext,
  wallet: WalletRecord,
  query: z.output<typeof balanceQuerySchema>,
) => Promise<GetBalanceReturnType>

/** Each family's balance reader, chosen once by the chain's family. */
const balanceOf: Record<ChainFamily, BalanceReader> = {
  evm: evmBalance,
  async solana(ctx, wallet, query) {
    const chain = solanaChainOf(ctx.chains, query.chain ?? wallet.chain)
    const balance = formatSolanaBalance(chain.name, await readSolanaBalance(chain, wallet.address))
    return { address: wallet.address, ...balance, balance }
  },
}

async function evmBalance(
  ctx: AgentWalletContext,
  wallet: WalletRecord,
  query: z.output<typeof balanceQuerySchema>,
): Promise<GetBalanceReturnType> {
  const chain = ctx.chains.get(query.chain ?? wallet.chain)
  const tokenAddresses = dedupe([
    ...(chain.contracts.tokens ?? []).map((token) => token.address),
    ...(query.tokens ?? []),
  ])
  try {
    const [wei, tokens] = await Promise.all([
      chain.client.getBalance({ address: wallet.address }),
      Promise.all(
        tokenAddresses.map(async (token) => {
          const asset = await resolveAsset(chain, token)
          const raw = await chain.client.readContract({
            address: token,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [wallet.address],
          })
          return {
            address: token,
            symbol: asset.symbol,
            decimals: asset.decimals,
            balance: formatUnits(raw, asset.decimals),
            raw: raw.toString(),
          }
        }),
      ),
    ])
    const balance = { chain: chain.name, eth: formatUnits(wei, 18), wei: wei.toString(), tokens }
    return { address: wallet.address, ...balance, balance }
  } catch (error) {
    throw toChainError(error, chain.name, { read: true })
  }
}

function dedupe(addresses: Address[]): Address[] {
  const seen = new Set<string>()
  return addresses.filter((address) => {
    const key = address.toLowerCase()
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

import { type Address, erc20Abi, formatUnits } from 'viem'
import { z } from 'zod'
import { resolveAsset } from '../chain/resolveAsset.js'
import { toChainError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { parseInput } from '../schemas/parseInput.js'
import { addressSchema } from '../schemas/primitives.js'
import { findWallet } from './findWallet.js'

export const balanceQuerySchema = z.strictObject({
  chain: z.string().min(1).optional(),
  /** Extra ERC-20 addresses to report beside the chain's known tokens. */
  tokens: z.array(addressSchema).max(50).optional(),
})
export type GetBalanceParameters = z.input<typeof balanceQuerySchema>

export type TokenBalance = {
  address: Address
  symbol: string
  decimals: number
  balance: string
  raw: string
}
export type GetBalanceReturnType = {
  address: Address
  chain: string
  eth: string
  wei: string
  tokens: TokenBalance[]
}

/**
 * Native and ERC-20 balances of a wallet: the chain's known tokens plus any asked for.
 * @example const { eth, tokens } = await getBalance(ctx, principal, address, { chain: 'devnet' })
 */
export async function getBalance(
  ctx: AgentWalletContext,
  principal: Principal,
  address: string,
  parameters: GetBalanceParameters = {},
): Promise<GetBalanceReturnType> {
  const query = parseInput(balanceQuerySchema, parameters)
  const wallet = await findWallet(ctx, principal, address)
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
    return {
      address: wallet.address,
      chain: chain.name,
      eth: formatUnits(wei, 18),
      wei: wei.toString(),
      tokens,
    }
  } catch (error) {
    throw toChainError(error, chain.name)
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

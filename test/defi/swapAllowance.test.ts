import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, erc20Abi, parseUnits } from 'viem'
import { expect, it } from 'vitest'
import {
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
  withStatus,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

const token = (symbol: string) => devnet.addressBook.tokens.find((entry) => entry.symbol === symbol)!.address

/** Every router a swap on the devnet can approve: each Uniswap V2 router and the V3 SwapRouter02. */
const routers = () => [
  ...devnet.addressBook.uniswapV2.map((venue) => venue.router),
  ...devnet.addressBook.uniswapV3.map((venue) => venue.router),
]

const allowancesOf = (tokenAddress: Address, owner: Address) =>
  Promise.all(
    routers().map((router) =>
      publicClientOf(devnet).readContract({
        address: tokenAddress,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [owner, router],
      }),
    ),
  )

/** A token sale whose best venue is a V2 router (`v2`) or the V3 one, read from the live quotes. */
async function saleWonBy(kind: 'v2' | 'v3') {
  const v3 = devnet.addressBook.uniswapV3.map((venue) => venue.name)
  for (const [fromToken, toToken, amount] of [
    ['USDC', 'DAI', '1'],
    ['USDC', 'DAI', '100'],
    ['USDC', 'DAI', '200'],
    ['DAI', 'USDC', '1'],
    ['DAI', 'USDC', '100'],
    ['USDC', 'WETH', '1'],
    ['DAI', 'WETH', '1'],
  ] as const) {
    const { best } = await aw.quoteSwap({ fromToken, toToken, amount })
    if (v3.includes(best.venue) === (kind === 'v3'))
      return { sale: { fromToken, toToken, amount }, venue: best.venue }
  }
  throw new Error(`no devnet sale is won by a ${kind} venue`)
}

for (const kind of ['v2', 'v3'] as const) {
  it(`a swap won by a ${kind} venue approves exactly what it spends and leaves no allowance to any router`, async () => {
    const { sale, venue } = await saleWonBy(kind)
    const wallet = await fundedWallet(aw, devnet, '1')
    const sold = token(sale.fromToken)
    await devnet.mintToken(sold, wallet.address, parseUnits('1000', sale.fromToken === 'USDC' ? 6 : 18))
    const before = await allowancesOf(sold, wallet.address)
    expect(before.every((allowance) => allowance === 0n)).toBe(true)

    const swapped = withStatus(
      await aw.swap({ ...sale, wallet: wallet.address, fromToken: sold }),
      'confirmed',
    )
    expect(swapped.venue).toBe(venue)
    // The approve granted the amount sold, no more; the swap spent it all.
    expect(swapped.allowanceTransaction?.meta).toMatchObject({ allowance: swapped.amountInRaw })
    expect(await allowancesOf(sold, wallet.address)).toEqual(before)

    // So the next swap approves again, and again leaves nothing standing.
    const again = withStatus(await aw.swap({ ...sale, wallet: wallet.address, fromToken: sold }), 'confirmed')
    expect(again.allowanceTransaction?.status).toBe('confirmed')
    expect(await allowancesOf(sold, wallet.address)).toEqual(before)
  })
}

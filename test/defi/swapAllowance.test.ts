import {
  type AgentWallet,
  type QuoteSource,
  type SwapOperation,
  uniswapV2QuoteSource,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, erc20Abi, parseUnits } from 'viem'
import { expect, it } from 'vitest'
import {
  agentWalletOn,
  approver,
  freshAddress,
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

it('a swap resumed after its approved allowance swaps where that allowance is spent, though a new venue quotes better', async () => {
  // An aggregator that starts quoting (far better, through another spender) while the approver reads.
  let open = false
  const elsewhere = freshAddress()
  const late: QuoteSource = {
    name: 'late-aggregator',
    async quote(request) {
      if (!open) return []
      const [venueQuote] = await uniswapV2QuoteSource.quote(request)
      if (!venueQuote) return []
      return [
        {
          ...venueQuote,
          source: 'late-aggregator',
          venue: 'late',
          amountOut: venueQuote.amountOut * 2n,
          spender: elsewhere,
          trustedSpender: false,
          buildCall: () => Promise.reject(new Error('never asked: the approved spender is kept')),
        },
      ]
    },
  }
  const tracked = await agentWalletOn(devnet, { quoteSources: [late] })
  try {
    const wallet = await fundedWallet(tracked, devnet, '1')
    const usdc = token('USDC')
    await devnet.mintToken(usdc, wallet.address, parseUnits('500', 6))
    await tracked.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'require_approval', asset: usdc, always: true }],
    })
    const started = withStatus(
      await tracked.swap({ fromToken: 'USDC', toToken: 'DAI', amount: '100', wallet: wallet.address }),
      'pending_approval',
    )
    const spender = started.allowanceTransaction?.meta?.spender
    expect(routers()).toContain(spender)
    open = true
    await tracked.as(approver).approve({ approvalId: started.approval.id })
    const swapStep = await swapWhere(tracked, started.swapId, (swap) => swap.step === 'swap')
    expect(swapStep.venue).not.toBe('late')
    await tracked.as(approver).approve({ approvalId: swapStep.approvalId! })
    const done = await swapWhere(
      tracked,
      started.swapId,
      (swap) => swap.status === 'confirmed' || swap.status === 'failed',
    )
    expect(done.status).toBe('confirmed')
    const allowances = await allowancesOf(usdc, wallet.address)
    expect(allowances.every((allowance) => allowance === 0n)).toBe(true)
    expect(
      await publicClientOf(devnet).readContract({
        address: usdc,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [wallet.address, elsewhere],
      }),
    ).toBe(0n)
  } finally {
    await tracked.close()
  }
})

/** Polls the tracked swap until `done` holds for it. */
async function swapWhere(
  wallet: AgentWallet,
  id: string,
  done: (swap: SwapOperation) => boolean,
): Promise<SwapOperation> {
  let swap: SwapOperation | undefined
  await expect
    .poll(
      async () => {
        swap = (await wallet.getSwap({ swapId: id })).swap
        return done(swap)
      },
      { timeout: 20_000 },
    )
    .toBe(true)
  return swap!
}

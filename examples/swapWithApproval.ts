/**
 * Swaps in-process: quote every venue, a swap that waits for a human, followed to the end with
 * getSwap — plus a quote source of your own beside the built-in ones (here: one that only asks the
 * V3 venue, renamed; a real one would call an aggregator's HTTP API, see zeroExQuoteSource).
 * Run: node --import tsx examples/swapWithApproval.ts
 */
import { createAgentWallet, type Principal, type QuoteSource, uniswapV3QuoteSource } from '@agentwallet/core'
import { createDevnet } from '@agentwallet/devnet'
import { parseEther } from 'viem'

/** A quote source is one function: given what to sell, the quotes it can fill (or none). */
const houseRouter: QuoteSource = {
  name: 'house-router',
  async quote(request) {
    const quotes = await uniswapV3QuoteSource.quote(request)
    return quotes.map((quote) => ({
      ...quote,
      source: 'house-router',
      venue: `house-router (${quote.venue})`,
    }))
  },
}

export async function runSwapWithApproval() {
  const devnet = await createDevnet()
  const aw = await createAgentWallet({
    chains: {
      devnet: { provider: devnet.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
    },
    quoteSources: [houseRouter],
  })
  try {
    const agent = aw.as({ tenantId: 'default', id: 'trader', role: 'agent' })
    const human: Principal = { tenantId: 'default', id: 'alice', role: 'approver' }
    const { wallet } = await agent.createWallet({ agentName: 'trader' })
    await devnet.faucet(wallet.address, parseEther('3'))
    // Every swap over 0.5 ETH waits for a human.
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'require_approval', asset: 'native', above: '0.5' }],
    })

    const quote = await agent.quoteSwap({ fromToken: 'ETH', toToken: 'DAI', amount: '1' })
    const venues = quote.quotes.map((q) => `${q.venue}: ${q.amountOut} DAI`)

    const started = await agent.swap({ fromToken: 'ETH', toToken: 'DAI', amount: '1', slippageBps: 30 })
    if (started.status !== 'pending_approval' || !started.swapId) throw new Error('expected a paused swap')
    await aw.as(human).approve({ approvalId: started.approval!.id })
    // The swap runs on once approved; follow it by its id (GET /defi/swap/:swapId over HTTP).
    let { swap } = await agent.getSwap({ swapId: started.swapId })
    for (let i = 0; i < 200 && (swap.status === 'awaiting_approval' || swap.status === 'swapping'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      ;({ swap } = await agent.getSwap({ swapId: started.swapId }))
    }
    return { best: quote.best.venue, venues, swap }
  } finally {
    await aw.close()
    await devnet.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { best, venues, swap } = await runSwapWithApproval()
  console.log({ best, venues, status: swap.status, venue: swap.venue, received: swap.amountOutRaw })
}

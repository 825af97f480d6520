import { type AgentWallet, createAgentWallet, memoryStorage } from '@agentwallet/core'
import { createDevnet, type DevnetProvider } from '@agentwallet/devnet'
import type { Options, Row } from './benches.js'

const round = (value: number, digits = 2) => Number(value.toFixed(digits))

/**
 * `quoteSwap` latency and RPC calls on the devnet, in one run: the V2 venues alone, V3 alone, and
 * both (what a swap asks), for a two-hop pair (USDC → DAI), the quotes alternating in rounds so
 * machine load hits each alike. RPC calls are counted at the provider; a first (cold) quote of each
 * also shows what the V3 pool cache saves. Ratios are of this one run.
 */
export async function quoteBench({ budgetMs }: Options): Promise<Row[]> {
  const devnet = await createDevnet()
  const calls = new Map<string, number>()
  const counting = (name: string): DevnetProvider => ({
    request(args) {
      calls.set(name, (calls.get(name) ?? 0) + 1)
      return devnet.provider.request(args)
    },
  })
  const variants = [
    { name: 'V2 venues', contracts: { ...devnet.addressBook, uniswapV3: [] } },
    { name: 'V3 venue', contracts: { ...devnet.addressBook, uniswapV2: [] } },
    { name: 'V2 + V3', contracts: devnet.addressBook },
  ]
  const wallets: { name: string; aw: AgentWallet }[] = []
  try {
    for (const variant of variants) {
      const aw = await createAgentWallet({
        chains: {
          devnet: {
            provider: counting(variant.name),
            chainId: devnet.chain.id,
            contracts: variant.contracts,
          },
        },
        storage: memoryStorage(),
        defaultTenantRules: [],
        track: false,
      })
      wallets.push({ name: variant.name, aw })
    }
    const quote = (aw: AgentWallet) => aw.quoteSwap({ fromToken: 'USDC', toToken: 'DAI', amount: '100' })
    const cold: Record<string, number> = {}
    for (const { name, aw } of wallets) {
      calls.set(name, 0)
      await quote(aw)
      cold[name] = calls.get(name) ?? 0
    }
    const times: Record<string, number[]> = {}
    const warmCalls: Record<string, number> = {}
    const deadline = performance.now() + Math.min(budgetMs, 20_000)
    while (performance.now() < deadline) {
      for (const { name, aw } of wallets) {
        calls.set(name, 0)
        const started = performance.now()
        for (let i = 0; i < 20; i++) await quote(aw)
        const perQuote = (performance.now() - started) / 20
        times[name] = [...(times[name] ?? []), perQuote]
        warmCalls[name] = (calls.get(name) ?? 0) / 20
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
    const base = median(times['V2 venues']!)
    return wallets.flatMap(({ name }) => [
      {
        bench: 'quote',
        metric: `quoteSwap USDC→DAI, ${name}`,
        value: round(median(times[name]!)),
        unit: 'ms',
        note: `${round(median(times[name]!) / base)}× of V2 alone; ${warmCalls[name]} RPC calls warm, ${cold[name]} cold`,
      },
    ])
  } finally {
    for (const { aw } of wallets) await aw.close()
    await devnet.close()
  }
}

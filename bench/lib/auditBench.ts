import { parseEther } from 'viem'
import type { Options, Row } from './benches.js'
import { type BenchServer, drive, median, quantile, startBenchServer } from './benchServer.js'

const round = (value: number, digits = 1) => Number(value.toFixed(digits))

/**
 * The audit trail's cost: the same server with the trail on (the default; checkpoints every 100
 * entries) and off, each on its own SQLite and devnet, in rounds of 100 HTTP sends (10
 * wallets, 20 concurrent; rules in force, so each send records its decision's inputs and the
 * signature) and 100 wallet creates (8 concurrent) per round, after a warm-up round on each; up to 12
 * rounds in alternating pairs. The ratio is the median of the pairs' on ÷ off; the goal is ≥ 0.9.
 */
export async function auditBench({ budgetMs }: Options): Promise<Row[]> {
  const rules = [
    { type: 'max_per_tx', asset: 'native', max: '1' },
    { type: 'spend_limit', asset: 'native', max: '1000', window: '24h' },
  ]
  const on = await startBenchServer({ defaultTenantRules: rules })
  const off = await startBenchServer({ defaultTenantRules: rules, audit: false })
  try {
    const servers = [
      { name: 'on', s: on, wallets: await fundedWallets(on), sends: [] as number[], creates: [] as number[] },
      {
        name: 'off',
        s: off,
        wallets: await fundedWallets(off),
        sends: [] as number[],
        creates: [] as number[],
      },
    ]
    type Server = (typeof servers)[0]
    const measure = async (server: Server, round: number, sends: number, creates: number) => {
      const sent = await drive(sends, 20, budgetMs / 8, async (i) => {
        const { status } = await server.s.call('POST', `/wallet/${server.wallets[i % 10]}/send`, {
          to: server.s.devnet.accounts[9]!.address,
          value: '0.000001',
        })
        if (status !== 200) throw new Error(`send answered ${status}`)
      })
      const created = await drive(creates, 8, budgetMs / 8, async (i) => {
        const { status } = await server.s.call('POST', '/wallet/create', { agentName: `audit-${round}-${i}` })
        if (status !== 201) throw new Error(`create answered ${status}`)
      })
      return { sends: sent.done / (sent.ms / 1000), creates: created.done / (created.ms / 1000) }
    }
    // A warm-up round on each, not counted: the first round measured would otherwise pay the JIT's
    // start for both servers' shared code.
    for (const server of servers) await measure(server, -1, 60, 30)
    // Short rounds in pairs, the order alternating, each pair's on ÷ off taken at once: the machine's
    // load drifts over a run (rounds of one server spread 10–30 %), and a pair sees the same drift.
    const pairs: { sends: number; creates: number }[] = []
    const deadline = performance.now() + budgetMs
    for (let round = 0; round < 12 && performance.now() < deadline; round++) {
      const order = round % 2 === 0 ? servers : [...servers].reverse()
      for (const server of order) {
        const rates = await measure(server, round, 100, 100)
        server.sends.push(rates.sends)
        server.creates.push(rates.creates)
      }
      const [withTrail, without] = servers as [Server, Server]
      pairs.push({
        sends: withTrail.sends.at(-1)! / without.sends.at(-1)!,
        creates: withTrail.creates.at(-1)! / without.creates.at(-1)!,
      })
    }
    const [withTrail, without] = servers as [Server, Server]
    const spread = (ratios: number[]) =>
      `pairs' on ÷ off: median ${round(median(ratios), 2)}, quartiles ${round(quantile(ratios, 0.25), 2)}–${round(quantile(ratios, 0.75), 2)} over ${ratios.length} alternating pairs`
    const sendRatios = pairs.map((pair) => pair.sends)
    const createRatios = pairs.map((pair) => pair.creates)
    return [
      {
        bench: 'audit trail',
        metric: 'send (HTTP), trail on ÷ off',
        value: round(median(withTrail.sends)),
        unit: 'tx/s',
        floor: round(median(without.sends)),
        ratio: round(median(sendRatios), 2),
        goal: 0.9,
        note: `${spread(sendRatios)}; on ${withTrail.sends.map((x) => round(x)).join('/')} tx/s, off ${without.sends.map((x) => round(x)).join('/')}`,
      },
      {
        bench: 'audit trail',
        metric: 'wallet create (HTTP), trail on ÷ off',
        value: round(median(withTrail.creates)),
        unit: 'creates/s',
        floor: round(median(without.creates)),
        ratio: round(median(createRatios), 2),
        goal: 0.9,
        note: `${spread(createRatios)}; on ${withTrail.creates.map((x) => round(x)).join('/')}, off ${without.creates.map((x) => round(x)).join('/')} creates/s`,
      },
    ]
  } finally {
    await on.close()
    await off.close()
  }
}

async function fundedWallets(s: BenchServer): Promise<string[]> {
  const wallets = await Promise.all(
    Array.from(
      { length: 10 },
      async (_, i) => (await s.agentWallet.createWallet({ agentName: `audit-${i}` })).wallet,
    ),
  )
  for (const wallet of wallets) await s.devnet.faucet(wallet.address, parseEther('10'))
  return wallets.map((wallet) => wallet.address)
}

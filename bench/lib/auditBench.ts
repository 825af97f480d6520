import type { Options, Row } from './benches.js'
import { drive, median, quantile } from './benchServer.js'
import { forkBenchServer } from './forkBenchServer.js'

const round = (value: number, digits = 1) => Number(value.toFixed(digits))

/**
 * The audit trail's cost: the same server with the trail on (the default; checkpoints every 100
 * entries) and off, each in a process of its own (own heap and garbage collector) on its own SQLite
 * and devnet, in rounds of 100 HTTP sends (10 wallets, 20 concurrent; rules in force, so each send
 * records its decision's inputs and the signature) and 150 wallet creates (8 concurrent), after a
 * warm-up round on each; rounds in alternating pairs until the budget is spent (at least 4, at most 30). The
 * ratio is the median of the pairs' on ÷ off throughput; the goal is ≥ 0.9. Beside it, the pairs'
 * on ÷ off server CPU time per call (each server process's own, all its threads).
 */
export async function auditBench({ budgetMs }: Options): Promise<Row[]> {
  const rules = [
    { type: 'max_per_tx', asset: 'native', max: '1' },
    { type: 'spend_limit', asset: 'native', max: '1000', window: '24h' },
  ]
  const [on, off] = await Promise.all([
    forkBenchServer({ defaultTenantRules: rules }, { wallets: 10 }),
    forkBenchServer({ defaultTenantRules: rules, audit: false }, { wallets: 10 }),
  ])
  try {
    const servers = [on, off].map((s) => ({ s, sends: [] as Rates[], creates: [] as Rates[] }))
    type Server = (typeof servers)[0]
    type Rates = { perSecond: number; cpuMs: number }
    const measure = async (server: Server, round: number, sends: number, creates: number) => {
      const { s } = server
      const before = await s.cpuMs()
      const sent = await drive(sends, 20, budgetMs / 4, async (i) => {
        const { status } = await s.call('POST', `/wallet/${s.wallets[i % s.wallets.length]}/send`, {
          to: s.recipient,
          value: '0.000001',
        })
        if (status !== 200) throw new Error(`send answered ${status}`)
      })
      const between = await s.cpuMs()
      const created = await drive(creates, 8, budgetMs / 4, async (i) => {
        const { status } = await s.call('POST', '/wallet/create', { agentName: `audit-${round}-${i}` })
        if (status !== 201) throw new Error(`create answered ${status}`)
      })
      const after = await s.cpuMs()
      return {
        sends: { perSecond: sent.done / (sent.ms / 1000), cpuMs: (between - before) / sent.done },
        creates: { perSecond: created.done / (created.ms / 1000), cpuMs: (after - between) / created.done },
      }
    }
    // A warm-up round on each, not counted: the JIT's start and the first pages of each table.
    for (const server of servers) await measure(server, -1, 60, 60)
    // Short rounds in pairs, the order alternating, each pair's on ÷ off taken at once: the machine's
    // load drifts over a run (rounds of one server spread 10–30 %), and a pair sees the same drift.
    const deadline = performance.now() + budgetMs
    for (let round = 0; round < 30 && (round < 4 || performance.now() < deadline); round++) {
      const order = round % 2 === 0 ? servers : [...servers].reverse()
      for (const server of order) {
        const rates = await measure(server, round, 100, 150)
        server.sends.push(rates.sends)
        server.creates.push(rates.creates)
      }
    }
    const [withTrail, without] = servers as [Server, Server]
    const row = (kind: 'sends' | 'creates', metric: string, unit: string): Row => {
      const [a, b] = [withTrail[kind], without[kind]]
      const rate = a.map((rates, pair) => rates.perSecond / b[pair]!.perSecond)
      const cpu = a.map((rates, pair) => rates.cpuMs / b[pair]!.cpuMs)
      const spread = (ratios: number[]) =>
        `median ${round(median(ratios), 2)}, quartiles ${round(quantile(ratios, 0.25), 2)}–${round(quantile(ratios, 0.75), 2)}`
      const perSecond = (rates: Rates[]) => rates.map((x) => round(x.perSecond)).join('/')
      return {
        bench: 'audit trail',
        metric,
        value: round(median(a.map((x) => x.perSecond))),
        unit,
        floor: round(median(b.map((x) => x.perSecond))),
        ratio: round(median(rate), 2),
        goal: 0.9,
        note:
          `${rate.length} alternating pairs; throughput on ÷ off ${spread(rate)}; server CPU per call on ÷ off ${spread(cpu)} ` +
          `(on ${round(median(a.map((x) => x.cpuMs)), 2)} ms, off ${round(median(b.map((x) => x.cpuMs)), 2)} ms); on ${perSecond(a)}, off ${perSecond(b)} ${unit}`,
      }
    }
    return [
      row('sends', 'send (HTTP), trail on ÷ off', 'tx/s'),
      row('creates', 'wallet create (HTTP), trail on ÷ off', 'creates/s'),
    ]
  } finally {
    await Promise.all([on.close(), off.close()])
  }
}

import type { Options, Row } from './benches.js'
import { drive, median } from './benchServer.js'
import type { Attribution } from './cpuProfile.js'
import { forkBenchServer } from './forkBenchServer.js'
import type { ThreadCpu } from './threadCpu.js'

const round = (value: number, digits = 2) => Number(value.toFixed(digits))

/**
 * The server's CPU per send beside raw viem's, both in the server's own process (`forkBenchServer`:
 * the HTTP client that drives it is elsewhere) on the same devnet: rounds of 200 HTTP sends (10
 * wallets, 20 concurrent, no rules) and of 200 raw viem sends in a row from one account, in pairs, the
 * order alternating, after a warm-up of each; ours counted with the tracking that follows them (1.5 s
 * after the last answer: three tracker passes), raw viem's started once that is over. CPU by thread (`threadCpu`): the event loop, Node's
 * helpers (V8's concurrent GC, the fsyncs), and the embedded EVM's own threads; then one profiled
 * round of each, whose main-thread self time is split by family (ours, libraries, Node, the EVM's
 * JSON-RPC edge, GC) and by place, scaled to the round's main-thread CPU: the items of a send's cost.
 * The ratio is raw viem's CPU per send ÷ ours (the throughput ratio a CPU-bound run could reach).
 */
export async function sendCpuBench({ budgetMs }: Options): Promise<Row[]> {
  const count = 200
  const settleMs = 1_500
  const s = await forkBenchServer({ defaultTenantRules: [], trackerIntervalMs: 500 }, { wallets: 10 })
  try {
    const ours = async () => {
      await drive(count, 20, budgetMs, async (i) => {
        const { status } = await s.call('POST', `/wallet/${s.wallets[i % s.wallets.length]}/send`, {
          to: s.recipient,
          value: '0.000001',
        })
        if (status !== 200) throw new Error(`send answered ${status}`)
      })
    }
    const raw = async () => {
      await s.rawViem(count)
    }
    // Our sends are counted with the tracking that follows them (receipts, blocks, their commits), and
    // raw viem's rounds start once that is done: the background work of one never lands in the other's.
    const settled = () => new Promise((resolve) => setTimeout(resolve, settleMs))
    const perSend = async (work: () => Promise<void>): Promise<ThreadCpu> => {
      if (work === raw) await settled()
      const before = await s.threadCpu()
      await work()
      if (work === ours) await settled()
      const after = await s.threadCpu()
      return Object.fromEntries(
        Object.entries(after).map(([kind, ms]) => [kind, (ms - (before[kind] ?? 0)) / count]),
      )
    }
    await raw()
    await ours()
    const rounds = { ours: [] as ThreadCpu[], raw: [] as ThreadCpu[] }
    const deadline = performance.now() + budgetMs
    for (let pair = 0; pair < 8 && (pair < 3 || performance.now() < deadline); pair++) {
      if (pair % 2 === 0) {
        rounds.raw.push(await perSend(raw))
        rounds.ours.push(await perSend(ours))
      } else {
        rounds.ours.push(await perSend(ours))
        rounds.raw.push(await perSend(raw))
      }
    }
    const profiled = async (work: () => Promise<void>) => {
      await s.startProfile()
      const cpu = await perSend(work)
      return { cpu, ...(await s.stopProfile()) }
    }
    const profiles = { ours: await profiled(ours), raw: await profiled(raw) }
    const med = (samples: ThreadCpu[], kind: string) => median(samples.map((cpu) => cpu[kind] ?? 0))
    const split = (samples: ThreadCpu[]) => {
      const kinds = ['total', 'main', 'helpers', 'evm']
      return Object.fromEntries(kinds.map((kind) => [kind, round(med(samples, kind), 3)]))
    }
    const ourCpu = split(rounds.ours)
    const rawCpu = split(rounds.raw)
    /** A profile's buckets as ms a send: shares of its busy samples times the round's main-thread CPU. */
    const items = (attribution: Attribution, mainMs: number) => {
      const busy = attribution.filter(({ bucket }) => bucket !== '(idle)' && bucket !== '(profiler)')
      const total = busy.reduce((sum, { ms }) => sum + ms, 0)
      return busy.map(({ bucket, ms }) => ({ bucket, ms: round((ms / total) * mainMs, 3) }))
    }
    const family = {
      ours: items(profiles.ours.byFamily, ourCpu.main!),
      raw: items(profiles.raw.byFamily, rawCpu.main!),
    }
    const evmOf = (which: 'ours' | 'raw', cpu: Record<string, number>) =>
      round((family[which].find(({ bucket }) => bucket === 'evm')?.ms ?? 0) + cpu.evm!, 3)
    const show = (list: { bucket: string; ms: number }[], n: number) =>
      list
        .slice(0, n)
        .map(({ bucket, ms }) => `${bucket} ${ms}`)
        .join(', ')
    const places = items(profiles.ours.byPlace, ourCpu.main!)
    return [
      {
        bench: 'send CPU (server process)',
        metric: 'CPU ms a send, ours (HTTP) beside raw viem',
        value: ourCpu.total!,
        unit: 'ms',
        floor: rawCpu.total!,
        ratio: round(rawCpu.total! / ourCpu.total!),
        note:
          `${rounds.ours.length} alternating pairs of ${count}, medians; ours: main ${ourCpu.main}, helpers ${ourCpu.helpers}, EVM threads ${ourCpu.evm} ms; ` +
          `raw viem: main ${rawCpu.main}, helpers ${rawCpu.helpers}, EVM threads ${rawCpu.evm} ms; ` +
          `the EVM's share (its threads and its JSON-RPC edge on the loop): ours ${evmOf('ours', ourCpu)}, raw ${evmOf('raw', rawCpu)} ms; ` +
          `ours' main thread by family: ${show(family.ours, 8)}; by place: ${show(places, 12)}`,
        items: {
          ours: {
            cpu: ourCpu,
            evm: evmOf('ours', ourCpu),
            byFamily: family.ours,
            byPlace: places.slice(0, 30),
          },
          raw: { cpu: rawCpu, evm: evmOf('raw', rawCpu), byFamily: family.raw },
          oursTopFunctions: profiles.ours.byFunction.slice(0, 25),
        },
      },
    ]
  } finally {
    await s.close()
  }
}

/**
 * `pnpm bench [-- --only send,burst,sendcpu,remote,audit,solana] [--budget 30] [--tx 1000000] [--seed-budget 90] [--creates-at 100000]`:
 * every sub-bench in this one process, one after another, each bounded by its time budget (seconds;
 * seeding the history bench by --seed-budget). Each figure with a goal stands beside a floor or
 * baseline measured in the same run (`floor`, `ratio`, `goal` in the JSON). Prints a table and writes
 * bench/results/latest.json with the machine it ran on. Not part of `pnpm test`.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, freemem, loadavg, totalmem } from 'node:os'
import { parseArgs } from 'node:util'
import { auditBench } from './lib/auditBench.js'
import {
  burstBench,
  createsBench,
  historyBench,
  type Options,
  policyBench,
  type Row,
  remoteBurstBench,
  sendBench,
  webhookBench,
} from './lib/benches.js'
import { quoteBench } from './lib/quoteBench.js'
import { rateLimitBench } from './lib/rateLimitBench.js'
import { sendCpuBench } from './lib/sendCpuBench.js'
import { solanaSendBench } from './lib/solanaSendBench.js'
import { userOpBench } from './lib/userOpBench.js'
import { vaultBench } from './lib/vaultBench.js'

const benches: Record<string, (options: Options) => Promise<Row[]>> = {
  creates: createsBench,
  send: sendBench,
  burst: burstBench,
  sendcpu: sendCpuBench,
  remote: remoteBurstBench,
  webhooks: webhookBench,
  history: historyBench,
  policy: policyBench,
  ratelimit: rateLimitBench,
  quote: quoteBench,
  vaults: vaultBench,
  audit: auditBench,
  userops: userOpBench,
  solana: solanaSendBench,
}
const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    only: { type: 'string' },
    budget: { type: 'string', default: '30' },
    tx: { type: 'string', default: '1000000' },
    'seed-budget': { type: 'string', default: '90' },
    'creates-at': { type: 'string', default: '100000' },
  },
})
const selected = values.only ? values.only.split(',') : Object.keys(benches)
for (const name of selected)
  if (!benches[name]) throw new Error(`unknown bench "${name}"; one of ${Object.keys(benches).join(', ')}`)
const options: Options = {
  budgetMs: Number(values.budget) * 1000,
  txCount: Number(values.tx),
  seedBudgetMs: Number(values['seed-budget']) * 1000,
  createsAt: Number(values['creates-at']),
}

const machine = {
  nproc: cpus().length,
  cpu: cpus()[0]?.model ?? 'unknown',
  memoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
  freeMemoryGiB: Number((freemem() / 2 ** 30).toFixed(1)),
  loadAverage1m: Number(loadavg()[0]!.toFixed(2)),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
}
console.log(`machine: ${JSON.stringify(machine)}`)
const rows: Row[] = []
const started = new Date()
const runStarted = performance.now()
for (const name of selected) {
  const t = performance.now()
  process.stdout.write(`running ${name}… `)
  try {
    rows.push(...(await benches[name]!(options)))
    console.log(`${((performance.now() - t) / 1000).toFixed(1)} s`)
  } catch (error) {
    console.log(`failed: ${(error as Error).message} ${String((error as Error).cause ?? '')}`)
    rows.push({ bench: name, metric: 'failed', value: Number.NaN, unit: '', note: (error as Error).message })
  }
}

console.log(
  '\n| bench | metric | value | unit | floor | ratio | goal | note |\n|---|---|---:|---|---:|---:|---:|---|',
)
for (const row of rows)
  console.log(
    `| ${row.bench} | ${row.metric} | ${row.value} | ${row.unit} | ${row.floor ?? ''} | ${row.ratio ?? ''} | ${row.goal ?? ''} | ${row.note ?? ''} |`,
  )
console.log(
  `\ntotal ${((performance.now() - runStarted) / 1000).toFixed(0)} s; load average after: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
)
mkdirSync(new URL('./results/', import.meta.url), { recursive: true })
writeFileSync(
  new URL('./results/latest.json', import.meta.url),
  `${JSON.stringify({ startedAt: started.toISOString(), machine, options, rows }, null, 2)}\n`,
)
console.log('\nwrote bench/results/latest.json')

/**
 * `node --import tsx bench/storage.bench.ts [--seconds 3] [--rounds 2]`: SQLite commits/s with and
 * without group commit, in alternating rounds in this one process, at 1, 16 and 64 concurrent
 * committers. Each commit writes one wallet-shaped record and one event, as a create does. Prints
 * a table and writes bench/results/storage.json with the machine's load. Not part of `pnpm test`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { sqliteStorage } from '@agentwallet/sqlite'

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '3' }, rounds: { type: 'string', default: '2' } },
})
const seconds = Number(values.seconds)
const rounds = Number(values.rounds)
const concurrencies = [1, 16, 64]
const modes = { before: false, after: true } as const

type Sample = {
  mode: keyof typeof modes
  concurrency: number
  commitsPerSecond: number
  syncsPerCommit: number | null
}

/** Commits from `concurrency` loops for `seconds`; counts them, and the group syncs they took. */
async function measure(mode: keyof typeof modes, concurrency: number): Promise<Sample> {
  const dir = mkdtempSync(join(tmpdir(), 'aw-bench-storage-'))
  const storage = sqliteStorage({ filename: join(dir, 'bench.db'), groupCommit: modes[mode] })
  try {
    let commits = 0
    const started = performance.now()
    const deadline = started + seconds * 1000
    const loop = async (worker: number) => {
      for (let i = 0; performance.now() < deadline; i++) {
        const id = `w_${worker}_${i}`
        await storage.transaction([`wallet:${id}`], async (tx) => {
          await tx.put<string>('wallets', {
            id,
            tenantId: 'default',
            address: `0x${(worker * 1_000_000 + i).toString(16).padStart(40, '0')}`,
            ownerId: 'agent',
            createdAt: new Date().toISOString(),
            label: 'bench',
          })
          tx.appendEvent('wallets', { id: `e_${id}`, type: 'wallet.created', timestamp: '', data: { id } })
        })
        commits++
      }
    }
    await Promise.all(Array.from({ length: concurrency }, (_, worker) => loop(worker)))
    const elapsed = (performance.now() - started) / 1000
    return {
      mode,
      concurrency,
      commitsPerSecond: Math.round(commits / elapsed),
      // Without group commit SQLite syncs inside each COMMIT itself: one per commit, not counted here.
      syncsPerCommit: modes[mode] ? Number((storage.syncs / commits).toFixed(3)) : null,
    }
  } finally {
    await storage.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!
const loadBefore = loadavg()
const samples: Sample[] = []
for (let round = 0; round < rounds; round++) {
  for (const concurrency of concurrencies) {
    // Alternate which mode goes first, so a load change during the run favours neither.
    const order = round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const)
    for (const mode of order) samples.push(await measure(mode, concurrency))
  }
}
const rows = concurrencies.map((concurrency) => {
  const of = (mode: keyof typeof modes) =>
    samples.filter((s) => s.mode === mode && s.concurrency === concurrency)
  const before = median(of('before').map((s) => s.commitsPerSecond))
  const after = median(of('after').map((s) => s.commitsPerSecond))
  const syncs = median(of('after').map((s) => s.syncsPerCommit ?? 0))
  return {
    concurrency,
    before,
    after,
    ratio: Number((after / before).toFixed(2)),
    syncsPerCommitAfter: syncs,
  }
})
console.table(rows)
const machine = { cpus: cpus().length, loadavgBefore: loadBefore, loadavgAfter: loadavg() }
console.log(machine)
mkdirSync(new URL('./results/', import.meta.url), { recursive: true })
writeFileSync(
  new URL('./results/storage.json', import.meta.url),
  `${JSON.stringify({ at: new Date().toISOString(), seconds, rounds, machine, rows, samples }, null, 2)}\n`,
)

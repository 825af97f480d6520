import type { ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import type { Storage } from '../../storage/types.js'
import type { StorageSuiteContext } from './storageSuiteContext.js'

/** The collection and event stream the crash writer commits to. */
const collection = 'crash_writes'
const stream = 'crash'

const commitOne = (storage: Storage, id: string) =>
  storage.transaction([`crash:${id}`], async (tx) => {
    await tx.put(collection, { id })
    tx.appendEvent(stream, { id, type: 'crash.wrote', timestamp: '2026-01-01T00:00:00.000Z', data: { id } })
  })

/**
 * The child's side of the kill -9 test: commits `count` transactions at once, reporting
 * `acked <id>` as each one is acknowledged and `all acked` after the last, then keeps committing
 * so the kill lands in the middle of a commit stream.
 * @example await runCrashWriter(sqliteStorage({ filename }), 64, (line) => process.stdout.write(`${line}\n`))
 */
export async function runCrashWriter(storage: Storage, count: number, report: (line: string) => void) {
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const id = `w${String(i).padStart(5, '0')}`
      await commitOne(storage, id)
      report(`acked ${id}`)
    }),
  )
  report('all acked')
  for (let i = 0; ; i++) await commitOne(storage, `after${i}`)
}

/** What the child reported before `all acked`; rejects, with its stderr, if it exits before. */
function acknowledged(child: ChildProcess, count: number): Promise<string[]> {
  const acked: string[] = []
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('acked ')) acked.push(line.slice('acked '.length))
      if (line === 'all acked') resolve(acked)
    })
    child.on('exit', (code, signal) =>
      reject(
        new Error(
          `The crash writer exited (${code ?? signal}) after acknowledging ${acked.length} of ${count} commits: ${stderr}`,
        ),
      ),
    )
  })
}

/** An acknowledged commit survives the writer process being killed with SIGKILL. */
export const storageCrashTests = (
  { runner }: StorageSuiteContext,
  create: () => Promise<Storage>,
  reopen: (storage: Storage) => Promise<Storage>,
  spawnWriter: (storage: Storage, count: number) => ChildProcess,
  count: number,
) => {
  const { it, expect } = runner

  it(`keeps each of ${count} concurrent commits acknowledged by a process killed with SIGKILL`, async () => {
    const storage = await create()
    await storage.close()
    const child = spawnWriter(storage, count)
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    let acked: string[]
    try {
      acked = await acknowledged(child, count)
    } finally {
      child.kill('SIGKILL')
      await exited
    }
    expect(acked).toHaveLength(count)
    const after = await reopen(storage)
    try {
      const found = await after.query(collection, { where: { id: acked } })
      expect(found.map((record) => record.id).sort()).toEqual([...acked].sort())
      // Seqs stay gapless, and every acknowledged commit's event is among them.
      const events = await after.readEvents(stream)
      expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => i + 1))
      const logged = new Set(events.map((event) => event.id))
      expect(acked.filter((id) => !logged.has(id))).toEqual([])
    } finally {
      await after.close()
    }
  })
}

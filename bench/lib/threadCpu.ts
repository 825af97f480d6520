import { readdirSync, readFileSync } from 'node:fs'

/** CPU time (ms) this process's threads have used, summed by kind of thread. */
export type ThreadCpu = Record<string, number>

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const tick = 1000 / 100

/**
 * This process's CPU time (ms) by kind of thread, from /proc (Linux; only `total` elsewhere): `main`
 * (the event loop: our code, the libraries, SQLite's calls, the JSON-RPC to the devnet), `helpers`
 * (Node's other threads: V8's concurrent marking and sweeping, libuv's pool with its fsyncs, tsx's
 * loader; Node 20 names none of them), `evm` (the rest: EDR's tokio workers, where the embedded chain
 * executes; they come and go, so they are counted as the process's total less the other two), and
 * `total`. 10 ms resolution a thread.
 * @example const before = threadCpu(); await work(); const spent = threadCpuSince(before)
 */
export function threadCpu(): ThreadCpu {
  const { user, system } = process.cpuUsage()
  const total = (user + system) / 1000
  const spent: ThreadCpu = { total }
  let tasks: string[]
  try {
    tasks = readdirSync('/proc/self/task')
  } catch {
    return spent
  }
  for (const tid of tasks) {
    try {
      const comm = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim()
      // Fields after the parenthesised name: state is [0], utime [11], stime [12].
      const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')
      const ms = (Number(fields[11]) + Number(fields[12])) * tick
      const kind = tid === String(process.pid) ? 'main' : comm.startsWith('tokio') ? undefined : 'helpers'
      if (kind) spent[kind] = (spent[kind] ?? 0) + ms
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  if (spent.main !== undefined) spent.evm = total - spent.main - (spent.helpers ?? 0)
  return spent
}

/** Each kind's CPU time (ms) since `before`. */
export function threadCpuSince(before: ThreadCpu): ThreadCpu {
  const now = threadCpu()
  const spent: ThreadCpu = {}
  for (const [kind, ms] of Object.entries(now)) spent[kind] = ms - (before[kind] ?? 0)
  return spent
}

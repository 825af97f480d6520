import { randomBytes } from 'node:crypto'
import { linkSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** Thrown when another holder has the data dir; `code` says so without reading the message. */
const inUse = (message: string) => Object.assign(new Error(message), { code: 'DATA_DIR_IN_USE' as const })

/** Lock files this process holds: its own pid in any other one is a previous life's. */
const heldHere = new Set<string>()

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** This boot of the machine (Linux); pids from another boot are nobody's now. */
function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
  } catch {
    return ''
  }
}

/** The live owner's pid, or undefined when the lock was left by a dead process. */
function liveOwner(content: string): number | undefined {
  const [pidText = '', boot = ''] = content.trim().split(/\s+/)
  const owner = Number(pidText)
  if (!Number.isInteger(owner) || owner <= 0) return undefined
  if (boot && boot !== bootId()) return undefined
  // Our own pid, in a lock we do not hold: a process restarted with the same pid (pid 1 in a container).
  if (owner === process.pid) return undefined
  return isAlive(owner) ? owner : undefined
}

/**
 * Claims a data dir for one holder (a devnet, named `name`, in `<dataDir>/<file>`): two chains
 * appending to one journal would corrupt it. A lock left by a dead process (or by this pid's previous
 * life, or a previous boot) is taken over; a live holder's is `DATA_DIR_IN_USE`. Returns the release
 * function.
 * @example const unlock = lockDataDir(dataDir, { name: 'devnet', file: 'devnet.lock' })
 */
export function lockDataDir(dataDir: string, holder: { name: string; file: string }): () => void {
  const path = resolve(join(dataDir, holder.file))
  const { name } = holder
  if (heldHere.has(path))
    throw inUse(`${name} data dir ${dataDir} is in use by this process; share one devnet through serve()`)
  for (let attempt = 0; attempt < 2; attempt++) {
    // Written whole, then linked into place: nobody reads a half-written lock and takes it for stale.
    const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
    writeFileSync(temp, `${process.pid} ${bootId()}\n`, { flag: 'wx' })
    try {
      linkSync(temp, path)
      heldHere.add(path)
      return () => {
        if (heldHere.delete(path)) rmSync(path, { force: true })
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = liveOwner(readLock(path))
      if (owner !== undefined) {
        throw inUse(
          `${name} data dir ${dataDir} is in use by process ${owner}; share one devnet through serve()`,
        )
      }
      rmSync(path, { force: true })
    } finally {
      unlinkSync(temp)
    }
  }
  throw new Error(`could not lock ${name} data dir ${dataDir}`)
}

function readLock(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    // Released since: nothing to take over.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ''
    throw error
  }
}

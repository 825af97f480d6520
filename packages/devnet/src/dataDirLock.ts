import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Claims a data dir for this devnet: two chains appending to one journal would corrupt it. A lock left
 * by a dead process is taken over. Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, 'devnet.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return () => rmSync(path, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = Number(readFileSync(path, 'utf8'))
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
        throw new Error(
          `devnet data dir ${dataDir} is in use by process ${owner}; share one devnet through serve()`,
        )
      }
      rmSync(path, { force: true })
    }
  }
  throw new Error(`could not lock devnet data dir ${dataDir}`)
}

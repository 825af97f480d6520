import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A fresh database path in its own temp directory, and a cleanup for all paths handed out.
 * @example const temp = tempDatabases(); const file = temp.next(); afterAll(temp.cleanup)
 */
export const tempDatabases = () => {
  const dirs: string[] = []
  return {
    next(name = 'agentwallet.db') {
      const dir = mkdtempSync(join(tmpdir(), 'aw-sqlite-'))
      dirs.push(dir)
      return join(dir, name)
    },
    cleanup() {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
    },
  }
}

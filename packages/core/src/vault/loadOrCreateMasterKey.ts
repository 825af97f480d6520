import { randomBytes } from 'node:crypto'
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseMasterKey } from './masterKey.js'

export type LoadOrCreateMasterKeyParameters = {
  /** The data directory; created (0700) when missing. */
  dataDir: string
  /** File name inside `dataDir`. Default `master.key`. */
  fileName?: string | undefined
}

/**
 * Reads the master key file in `dataDir`, or creates it (mode 0600) with a random key on first use.
 * @example const masterKey = await loadOrCreateMasterKey({ dataDir: './data' })
 */
export const loadOrCreateMasterKey = async ({
  dataDir,
  fileName = 'master.key',
}: LoadOrCreateMasterKeyParameters): Promise<Uint8Array> => {
  const path = join(dataDir, fileName)
  try {
    return parseMasterKey(await readFile(path, 'utf8'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 })
  const key = randomBytes(32)
  // Write a private temp file, then link it into place: two processes starting at once agree on
  // one key, and no reader ever sees a half-written file.
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
  await writeFile(temp, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' })
  try {
    await link(temp, path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  } finally {
    await unlink(temp)
  }
  return parseMasterKey(await readFile(path, 'utf8'))
}

import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { DevnetAddressBook } from './deployProtocols.js'

/** What a data dir must remember besides the journal: the genesis (replay needs it identical). */
export type DataDirMeta = {
  version: 1
  chainId: number
  genesisTimestamp: number
  accounts: number
  /** Wei, as a decimal string. */
  accountBalance: string
  ensMinCommitmentAge: number
  /**
   * Written once set-up finished; absent means a start crashed mid-deploy. A data dir made by an
   * earlier version may lack later additions (`uniswapV3`): a start deploys them and rewrites it.
   */
  addressBook?:
    | (Omit<DevnetAddressBook, 'uniswapV3'> & Partial<Pick<DevnetAddressBook, 'uniswapV3'>>)
    | undefined
}

export const metaFile = (dataDir: string) => join(dataDir, 'devnet.json')
export const journalFile = (dataDir: string) => join(dataDir, 'devnet-journal.jsonl')

export function readMeta(dataDir: string): DataDirMeta | undefined {
  const path = metaFile(dataDir)
  if (!existsSync(path)) return undefined
  const meta = JSON.parse(readFileSync(path, 'utf8')) as DataDirMeta
  if (meta.version !== 1) throw new Error(`${path}: unsupported devnet data version ${meta.version}`)
  return meta
}

export function writeMeta(dataDir: string, meta: DataDirMeta): void {
  // Write-then-rename, so a crash never leaves a half-written file.
  const path = metaFile(dataDir)
  writeFileSync(`${path}.tmp`, `${JSON.stringify(meta, null, 2)}\n`)
  renameSync(`${path}.tmp`, path)
}

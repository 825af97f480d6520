import { randomBytes } from 'node:crypto'
import { existsSync, linkSync, readFileSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import {
  isAgentWalletError,
  masterKeyFromEnv,
  parseMasterKey,
  type RotateMasterKeyReturnType,
  rotateMasterKey,
  type Storage,
} from '@agentwallet/core'
import { CliError } from './cliError.js'
import { holdDataDir } from './holdDataDir.js'
import type { Env, ServerConfig } from './loadConfig.js'
import { describeUrl, openStorage } from './openStorage.js'
import type { Print } from './serve.js'
import { writeSecretFile } from './writeSecretFile.js'

/** The environment variable the new key is read from; without it one is generated into the data dir. */
export const newMasterKeyEnvVar = 'AGENTWALLET_NEW_MASTER_KEY'

/**
 * `agentwallet rotate-master-key`: re-seals every wallet key and webhook secret from the current
 * master key (`AGENTWALLET_MASTER_KEY`, else `<data-dir>/master.key`) to a new one
 * (`AGENTWALLET_NEW_MASTER_KEY`, else `<data-dir>/master.key.new`, generated 0600 if missing). When the
 * old key came from `master.key`, the new one replaces it there (the old one is kept beside it as
 * `master.key.retired-<time>`), so `serve` starts with it unchanged. Offline: no server may run.
 * Keys are never printed, only their public fingerprints.
 * @example await rotateMasterKeyCommand(config, process.env, console.log)
 */
export async function rotateMasterKeyCommand(config: ServerConfig, env: Env, print: Print): Promise<void> {
  if (config.storage === 'memory')
    throw new CliError('rotate-master-key needs durable storage: memory storage dies with each process')
  const oldFromEnv = masterKeyFromEnv(env)
  if (!oldFromEnv && config.storage === 'postgres')
    throw new CliError('rotate-master-key --storage postgres needs the current key in AGENTWALLET_MASTER_KEY')
  const keyFile = join(config.dataDir, 'master.key')
  const newKeyFile = join(config.dataDir, 'master.key.new')
  const from = oldFromEnv ?? readKeyFile(keyFile)
  // Key files are written into the data dir (on Postgres too, without AGENTWALLET_NEW_MASTER_KEY).
  const lock = holdDataDir(config.dataDir, 'rotate-master-key')
  const storage = await openForRotation(config).catch((error: unknown) => {
    lock.release()
    throw error
  })
  try {
    const newFromEnv = masterKeyFromEnv({ AGENTWALLET_MASTER_KEY: env[newMasterKeyEnvVar] })
    // The new key is on disk before the first record moves to it: a crash never strands records
    // under a key nobody kept, and a second run picks the same key up again.
    const to = newFromEnv ?? readKeyFileIfAny(newKeyFile) ?? createKeyFile(newKeyFile)
    if (newFromEnv && !oldFromEnv) writeSecretFile(newKeyFile, `${Buffer.from(newFromEnv).toString('hex')}\n`)
    print(`Rotating the master key of ${describeStorage(config)}`)
    const result = await rotate(storage, from, to)
    print(`  fingerprints: ${result.fromKeyId} -> ${result.toKeyId}`)
    print(`  wallet keys:     ${result.walletKeys.resealed} re-sealed, ${result.walletKeys.skipped} skipped`)
    print(
      `  webhook secrets: ${result.webhookSecrets.resealed} re-sealed, ${result.webhookSecrets.skipped} skipped`,
    )
    if (result.remaining > 0) {
      throw new CliError(
        `${result.remaining} record(s) were written under the old key during the rotation: a server still runs with it. Stop every server, then run rotate-master-key again`,
      )
    }
    if (!oldFromEnv) {
      const retired = join(
        config.dataDir,
        `master.key.retired-${new Date().toISOString().replaceAll(':', '')}`,
      )
      linkSync(keyFile, retired)
      renameSync(newKeyFile, keyFile)
      print(`New master key written to ${keyFile} (0600); the old one kept as ${retired}`)
    } else if (newFromEnv) {
      print('Start every server with AGENTWALLET_MASTER_KEY set to the new key (AGENTWALLET_NEW_MASTER_KEY)')
    } else {
      print(
        `New master key written to ${newKeyFile} (0600): set AGENTWALLET_MASTER_KEY to its content on every server, then delete the file`,
      )
    }
    reportFailures(result)
  } finally {
    await storage.close()
    lock.release()
  }
}

async function rotate(
  storage: Storage,
  from: Uint8Array,
  to: Uint8Array,
): Promise<RotateMasterKeyReturnType> {
  try {
    return await rotateMasterKey(storage, { from, to })
  } catch (error) {
    const records = isAgentWalletError(error) ? error.details?.records : undefined
    if (isAgentWalletError(error, 'master_key_mismatch') && Array.isArray(records)) {
      const listed = records.map((r: { collection: string; id: string }) => `${r.collection} ${r.id}`)
      throw new CliError(`master_key_mismatch: ${error.shortMessage} (e.g. ${listed.join(', ')})`)
    }
    throw error
  }
}

/** The rotation is done for every record that opens; the ones that open with neither key fail the command. */
function reportFailures(result: RotateMasterKeyReturnType): void {
  if (result.failed.length === 0) return
  const listed = result.failed.map((f) => `${f.collection} ${f.id} (${f.code})`).join('; ')
  throw new CliError(
    `${result.failed.length} record(s) open with neither key and were left as they are: ${listed}. Everything else is re-sealed`,
  )
}

async function openForRotation(config: ServerConfig): Promise<Storage> {
  try {
    return await openStorage(config)
  } catch (error) {
    if (config.storage === 'sqlite' && error instanceof CliError)
      throw new CliError(`${error.message} (the key is rotated offline: stop agentwallet serve first)`)
    throw error
  }
}

function readKeyFile(path: string): Uint8Array {
  const key = readKeyFileIfAny(path)
  if (!key) throw new CliError(`No master key: set AGENTWALLET_MASTER_KEY, or keep it in ${path}`)
  return key
}

function readKeyFileIfAny(path: string): Uint8Array | undefined {
  if (!existsSync(path)) return undefined
  try {
    return parseMasterKey(readFileSync(path, 'utf8'))
  } catch {
    // Never the content: it is (almost) a key.
    throw new CliError(`${path} does not hold a master key (32 bytes, hex or base64)`)
  }
}

function createKeyFile(path: string): Uint8Array {
  const key = randomBytes(32)
  writeSecretFile(path, `${key.toString('hex')}\n`)
  return new Uint8Array(key)
}

function describeStorage(config: ServerConfig): string {
  return config.storage === 'postgres'
    ? `${describeUrl(config.databaseUrl ?? '')} schema ${config.databaseSchema ?? 'agentwallet'}`
    : join(config.dataDir, 'agentwallet.db')
}

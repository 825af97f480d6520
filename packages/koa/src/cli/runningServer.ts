import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { isAgentWalletError } from '@agentwallet/core'
import { type LockHolder, lockFile } from '@agentwallet/sqlite'
import { CliError } from './cliError.js'
import type { Env, ServerConfig } from './loadConfig.js'

/** A server running on a data dir, as another `agentwallet` command reaches it: its URL and the root admin key. */
export type RunningServer = { url: string; adminKey: string }

const serverFileOf = (dataDir: string) => join(dataDir, 'server.json')

/**
 * Tells other commands on this data dir (`keys`, `faucet`) where the server listens, until `remove()`.
 * @example const file = announceServer(dataDir, 'http://127.0.0.1:8080'); … file.remove()
 */
export function announceServer(dataDir: string, url: string): { remove(): void } {
  const path = serverFileOf(dataDir)
  writeFileSync(path, `${JSON.stringify({ url, pid: process.pid })}\n`)
  return { remove: () => rmSync(path, { force: true }) }
}

/**
 * The server that holds this data dir, if the lock's holder is the process that announced itself
 * and it answers `/health/live` at that address; the root admin key from
 * AGENTWALLET_ADMIN_KEY or `<data-dir>/admin.key`.
 * @example const server = await findRunningServer(config, process.env)
 */
export async function findRunningServer(
  config: Pick<ServerConfig, 'dataDir' | 'storage'>,
  env: Env,
): Promise<RunningServer | undefined> {
  const path = serverFileOf(config.dataDir)
  if (config.storage === 'memory' || !existsSync(path)) return undefined
  let announced: { url?: unknown; pid?: unknown }
  try {
    announced = JSON.parse(readFileSync(path, 'utf8')) as typeof announced
  } catch {
    return undefined
  }
  // The admin key goes only to the process that holds the data dir now: a file left by a server
  // killed with -9 may name a port something else listens on.
  if (typeof announced.url !== 'string' || announced.pid !== holderPid(config.dataDir)) return undefined
  const url = announced.url
  const live = await fetch(`${url}/health/live`, { signal: AbortSignal.timeout(2000) }).then(
    (response) => response.ok,
    () => false,
  )
  if (!live) return undefined
  const keyFile = join(config.dataDir, 'admin.key')
  const adminKey =
    env.AGENTWALLET_ADMIN_KEY || (existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : '')
  if (!adminKey)
    throw new CliError(
      `A server runs on ${url} over this data dir; reaching it needs the root admin key: set AGENTWALLET_ADMIN_KEY (no ${keyFile})`,
    )
  return { url, adminKey }
}

/** The pid of the process on this host holding the data dir's lock, if one does. */
function holderPid(dataDir: string): number | undefined {
  try {
    lockFile({ filename: join(dataDir, 'agentwallet.lock'), command: 'agentwallet (probe)' }).release()
    return undefined
  } catch (error) {
    if (!isAgentWalletError(error, 'conflict')) return undefined
    const holder = (error.details as { holder?: LockHolder } | undefined)?.holder
    return holder?.host === hostname() ? holder.pid : undefined
  }
}

/**
 * One call to the running server's API as the root admin; an error answer is a CliError with its code.
 * @example const { apiKeys } = await callServer(server, 'GET', '/api-keys')
 */
export async function callServer<T = Record<string, unknown>>(
  server: RunningServer,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      'x-api-key': server.adminKey,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const answer = (await response.json().catch(() => ({}))) as {
    success?: boolean
    error?: { code?: string; message?: string }
  }
  if (!response.ok || answer.success === false)
    throw new CliError(
      `${answer.error?.code ?? `HTTP ${response.status}`}: ${answer.error?.message ?? 'the server refused the call'}`,
    )
  return answer as T
}

import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { type BootstrapAdminConflictReason, isAgentWalletError } from '@agentwallet/core'
import { createApp } from '../createApp.js'
import { dashboardExplorerUrl } from '../dashboard/dashboardExplorerUrl.js'
import { findDashboardDir } from '../dashboard/serveDashboard.js'
import { createLogger } from '../http/createLogger.js'
import { logBackgroundError } from '../http/logBackgroundError.js'
import { CliError } from './cliError.js'
import type { Env, ServerConfig } from './loadConfig.js'
import { openAgentWallet, type Runtime } from './openAgentWallet.js'
import { describeUrl } from './openStorage.js'
import { announceServer } from './runningServer.js'
import { writeSecretFile } from './writeSecretFile.js'

export type Print = (line: string) => void

/**
 * `agentwallet serve`: holds the data dir, opens the runtime, bootstraps the root admin key (printed
 * once and, on durable storage, written to `<data-dir>/admin.key`, 0600; or set by
 * AGENTWALLET_ADMIN_KEY, which replaces and revokes the root key before it), and serves HTTP + /ws.
 * @example await serve(config, process.env, console.log)
 */
export async function serve(
  config: ServerConfig,
  env: Env,
  print: Print,
): Promise<{ url: string; close(): Promise<void> }> {
  // The dashboard is on whenever its built assets are installed (`pnpm build` builds them); then
  // it is the explorer of chains that have none (the devnet), at the public URL, known once listening.
  const dashboardDir = findDashboardDir()
  let publicUrl = config.publicUrl
  const logger = createLogger({ level: config.logLevel })
  const runtime = await openAgentWallet(config, env, 'serve', {
    localExplorerUrl: dashboardDir ? () => publicUrl && dashboardExplorerUrl(publicUrl) : undefined,
    onBackgroundError: logBackgroundError(logger),
  })
  try {
    const keyFile = join(config.dataDir, 'admin.key')
    // Memory storage keeps no secret on disk: the key dies with the process, and so must every copy.
    const keepsKeyFile = config.storage !== 'memory'
    const boot = await bootstrapRootKey(runtime, config.adminKey)
    if (boot.status === 'created' && keepsKeyFile) writeSecretFile(keyFile, `${boot.key}\n`)
    if (boot.revoked.length > 0) {
      const revoked = boot.revoked.map((key) => key.id)
      logger.warn(
        { keyId: boot.apiKey?.id, revoked },
        `root admin key replaced (previous key ${revoked.join(', ')} revoked)`,
      )
      if (keepsKeyFile) await removeRevokedKeyFile(runtime, keyFile)
    }
    const app = createApp({
      agentWallet: runtime.agentWallet,
      dashboard: dashboardDir ? { dir: dashboardDir } : false,
      logger,
      adminKeyHint: config.adminKey
        ? 'the value of AGENTWALLET_ADMIN_KEY'
        : keepsKeyFile
          ? `the file ${keyFile}`
          : 'printed once by the server at start',
      rateLimit: config.rateLimit,
      metrics: config.metricsToken ? { token: config.metricsToken } : false,
      health: { requiredChains: config.readyChains },
    })
    const server = await app
      .listen({ port: config.port, host: config.host })
      .catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRINUSE')
          throw new CliError(
            `Port ${config.port} on ${config.host} is already in use; choose another with --port`,
          )
        if (error.code === 'EACCES')
          throw new CliError(
            `No permission to listen on ${config.host}:${config.port}; use a port above 1023`,
          )
        if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
          throw new CliError(`Cannot listen on host "${config.host}"`)
        throw error
      })
    publicUrl ??= reachableUrl(server.url)
    // `keys` and `faucet` on this data dir go through this server while it runs.
    const announced =
      config.storage === 'memory' ? undefined : announceServer(config.dataDir, reachableUrl(server.url))
    const startedAt = Date.now()
    const chains = runtime.agentWallet.context.chains
      .list()
      .map((chain) => `${chain.name} (${chain.family === 'solana' ? 'solana' : chain.chainId})`)
    print(`AgentWallet listening on ${server.url}`)
    print(`  storage: ${describeStorage(config)}`)
    print(
      `  chains:  ${chains.join(', ')}${runtime.devnet ? ' — embedded devnets, state in the data dir' : ''}`,
    )
    // After the first start the key is only in the file: a command substitution keeps the example runnable.
    const inFile = keepsKeyFile && existsSync(keyFile)
    const keyShown = boot.status === 'created' ? boot.key : inFile ? `$(cat ${keyFile})` : '<root admin key>'
    if (boot.status === 'created') {
      print('')
      print(
        keepsKeyFile
          ? `Root admin API key (shown once; also saved to ${keyFile}, mode 0600):`
          : 'Root admin API key (shown once; memory storage keeps it nowhere else):',
      )
      print(`  ${boot.key}`)
    } else if (config.adminKey) {
      print('  admin key: AGENTWALLET_ADMIN_KEY')
    } else if (inFile) {
      print(`  admin key: see ${keyFile} (written on first start)`)
    } else {
      print('  admin key: the root admin key you hold (AGENTWALLET_ADMIN_KEY replaces it)')
    }
    const key = config.adminKey ? '$AGENTWALLET_ADMIN_KEY' : keyShown
    print('')
    print('Try it:')
    print(
      `  curl -s -H "X-API-Key: ${key}" -H "content-type: application/json" -d '{"agentName":"my-agent"}' ${server.url}/wallet/create`,
    )
    print(`  curl -s -H "X-API-Key: ${key}" ${server.url}/wallet/list`)
    print(`Docs: ${server.url}/onboarding  ${server.url}/openapi.json`)
    if (config.metricsToken)
      print(`Metrics: ${server.url}/metrics (Authorization: Bearer $AGENTWALLET_METRICS_TOKEN)`)
    if (dashboardDir) print(`Dashboard: ${publicUrl}/dashboard/ (sign in with an approver or admin key)`)
    return {
      url: server.url,
      async close() {
        announced?.remove()
        await server.close()
        await runtime.close()
        logger.info({ uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) }, 'server stopped')
      },
    }
  } catch (error) {
    await runtime.close()
    throw error
  }
}

/** The root key from AGENTWALLET_ADMIN_KEY (or generated); a value that cannot be the root key stops the start. */
async function bootstrapRootKey(runtime: Runtime, adminKey: string | undefined) {
  try {
    return await runtime.agentWallet.bootstrapAdmin({ adminKey })
  } catch (error) {
    if (!isAgentWalletError(error, 'conflict')) throw error
    const { keyId, reason } = (error.details ?? {}) as {
      keyId?: string
      reason?: BootstrapAdminConflictReason
    }
    throw new CliError(
      reason === 'revoked'
        ? `AGENTWALLET_ADMIN_KEY holds the revoked root key ${keyId}: a newer value replaced it, and a replaced key is never restored. Start with the current value`
        : `AGENTWALLET_ADMIN_KEY holds ${keyId}, an existing key that is not the root admin key; choose a new value`,
    )
  }
}

/** An admin.key holding a key that was just replaced only misleads: it goes. */
async function removeRevokedKeyFile(runtime: Runtime, keyFile: string): Promise<void> {
  if (!existsSync(keyFile)) return
  const stale = await runtime.agentWallet.authenticate(readFileSync(keyFile, 'utf8').trim()).then(
    () => false,
    (error: unknown) => isAgentWalletError(error, 'unauthorized'),
  )
  if (stale) rmSync(keyFile, { force: true })
}

/** The listening URL, with a wildcard host (0.0.0.0, ::) replaced by loopback: a link must name a host. */
function reachableUrl(listening: string): string {
  const url = new URL(listening)
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1'
  if (url.hostname === '[::]') url.hostname = '[::1]'
  return url.href.replace(/\/+$/, '')
}

function describeStorage(config: ServerConfig): string {
  if (config.storage === 'sqlite') return join(config.dataDir, 'agentwallet.db')
  if (config.storage === 'postgres')
    return `postgres ${describeUrl(config.databaseUrl ?? '')} schema ${config.databaseSchema ?? 'agentwallet'}`
  return 'memory (nothing survives a restart)'
}

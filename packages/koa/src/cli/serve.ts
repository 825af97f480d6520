import { join } from 'node:path'
import { createApp } from '../createApp.js'
import { findDashboardDir } from '../dashboard/serveDashboard.js'
import { createLogger } from '../http/createLogger.js'
import { CliError } from './cliError.js'
import type { Env, ServerConfig } from './loadConfig.js'
import { openAgentWallet } from './openAgentWallet.js'
import { describeUrl } from './openStorage.js'
import { writeSecretFile } from './writeSecretFile.js'

export type Print = (line: string) => void

/**
 * `agentwallet serve`: opens the runtime, bootstraps the root admin key (printed once and written to
 * `<data-dir>/admin.key`, 0600; or fixed by AGENTWALLET_ADMIN_KEY), and serves HTTP + /ws until a signal.
 * @example await serve(config, process.env, console.log)
 */
export async function serve(
  config: ServerConfig,
  env: Env,
  print: Print,
): Promise<{ url: string; close(): Promise<void> }> {
  const runtime = await openAgentWallet(config, env)
  try {
    const boot = await runtime.agentWallet.bootstrapAdmin({ adminKey: config.adminKey })
    const keyFile = join(config.dataDir, 'admin.key')
    if (boot.status === 'created') writeSecretFile(keyFile, `${boot.key}\n`)
    // The dashboard is on whenever its built assets are installed (`pnpm build` builds them).
    const dashboardDir = findDashboardDir()
    const app = createApp({
      agentWallet: runtime.agentWallet,
      dashboard: dashboardDir ? { dir: dashboardDir } : false,
      logger: createLogger({ level: config.logLevel }),
      adminKeyHint: config.adminKey ? 'the value of AGENTWALLET_ADMIN_KEY' : `the file ${keyFile}`,
      rateLimit: config.rateLimit,
      metrics: config.metricsToken ? { token: config.metricsToken } : false,
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
    const chains = runtime.agentWallet.context.chains
      .list()
      .map((chain) => `${chain.name} (${chain.chainId})`)
    print(`AgentWallet listening on ${server.url}`)
    print(`  storage: ${describeStorage(config)}`)
    print(
      `  chains:  ${chains.join(', ')}${runtime.devnet ? ' — embedded devnet, state in the data dir' : ''}`,
    )
    // After the first start the key is only in the file: a command substitution keeps the example runnable.
    const keyShown = boot.status === 'created' ? boot.key : `$(cat ${keyFile})`
    if (boot.status === 'created') {
      print('')
      print(`Root admin API key (shown once; also saved to ${keyFile}, mode 0600):`)
      print(`  ${boot.key}`)
    } else if (config.adminKey) {
      print('  admin key: AGENTWALLET_ADMIN_KEY')
    } else {
      print(`  admin key: see ${keyFile} (written on first start)`)
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
    if (dashboardDir) print(`Dashboard: ${server.url}/dashboard/ (sign in with an approver or admin key)`)
    return {
      url: server.url,
      async close() {
        await server.close()
        await runtime.close()
      },
    }
  } catch (error) {
    await runtime.close()
    throw error
  }
}

function describeStorage(config: ServerConfig): string {
  if (config.storage === 'sqlite') return join(config.dataDir, 'agentwallet.db')
  if (config.storage === 'postgres')
    return `postgres ${describeUrl(config.databaseUrl ?? '')} schema ${config.databaseSchema ?? 'agentwallet'}`
  return 'memory (nothing survives a restart)'
}

#!/usr/bin/env node
import { isAgentWalletError } from '@agentwallet/core'
import { CliError } from './cliError.js'
import { devnetCommand } from './devnetCommand.js'
import { keys } from './keys.js'
import { loadConfig, parseCli } from './loadConfig.js'
import { mcpCommand } from './mcpCommand.js'
import { migrateCommand } from './migrateCommand.js'
import { rotateMasterKeyCommand } from './rotateMasterKeyCommand.js'
import { serve } from './serve.js'

const usage = `Usage: agentwallet <command> [flags]

Commands:
  serve    HTTP + WebSocket API (default: SQLite + embedded devnet in --data-dir)
  keys     create --name <n> [--role agent|approver|admin] [--tenant <id>] | list | revoke <id>
  devnet   serve the embedded chain as JSON-RPC (default port 8545)
  migrate  bring the Postgres schema up to date and exit (--storage postgres --database-url …)
  rotate-master-key  re-seal wallet keys and webhook secrets under a new master key, with every server stopped
           (old: AGENTWALLET_MASTER_KEY or <data-dir>/master.key; new: AGENTWALLET_NEW_MASTER_KEY or generated 0600 in the data dir)
  mcp      the agent tools as an MCP server on stdio (env AGENTWALLET_API_KEY, an agent key; AGENTWALLET_URL for a running server, else in-process; AGENTWALLET_MCP_TRANSPORT=http for streamable HTTP)

Flags:
  --port <n>            default 8080 (devnet: 8545)          env AGENTWALLET_PORT
  --host <h>            default 127.0.0.1                     env AGENTWALLET_HOST
  --data-dir <dir>      default ./.agentwallet                env AGENTWALLET_DATA_DIR
  --storage sqlite|memory|postgres  default sqlite            env AGENTWALLET_STORAGE
  --database-url <url>  Postgres, shared by every replica       env AGENTWALLET_DATABASE_URL
  --database-schema <s> Postgres schema, default agentwallet    env AGENTWALLET_DATABASE_SCHEMA
  --chain name=rpcUrl   repeatable; default the embedded devnet  env AGENTWALLET_CHAINS (comma-separated)
  --config <file>       JSON with the same settings (default <data-dir>/config.json if present)
  --log-level <level>   default info                          env AGENTWALLET_LOG_LEVEL
Secrets (env only): AGENTWALLET_ADMIN_KEY is the root admin key (a new value revokes the previous one);
AGENTWALLET_MASTER_KEY the key-encryption key. One process holds a data dir at a time.
AGENTWALLET_ALLOW_PRIVATE_WEBHOOKS=127.0.0.0/8,::1/128 lets webhooks target those private/loopback ranges (all refused by default).`

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const print = (line: string): void => {
    process.stdout.write(`${line}\n`)
  }
  const { command, rest, values } = parseCli(argv)
  if (values.help || command === undefined || command === 'help') return print(usage)
  if (command === 'devnet' && values.port === undefined && env.AGENTWALLET_PORT === undefined)
    values.port = '8545'
  const config = loadConfig(values, env)
  if (command === 'keys') return keys(rest, values, config, print)
  if (command === 'migrate') return migrateCommand(config, print)
  if (command === 'rotate-master-key') return rotateMasterKeyCommand(config, env, print)
  if (command !== 'serve' && command !== 'devnet' && command !== 'mcp')
    throw new CliError(`Unknown command "${command}"\n\n${usage}`)
  const running: { close(): Promise<void>; closed?: Promise<void> } =
    command === 'serve'
      ? await serve(config, env, print)
      : command === 'mcp'
        ? await mcpCommand(config, env)
        : await devnetCommand(config, print)
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    await running.close()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  // An MCP stdio session ends when its client hangs up.
  void running.closed?.then(stop)
}

main(process.argv.slice(2), process.env).catch((error: unknown) => {
  // Operators get one clear line; stacks are for bugs, and even then never secrets.
  if (error instanceof CliError) process.stderr.write(`agentwallet: ${error.message}\n`)
  else if (isAgentWalletError(error))
    process.stderr.write(`agentwallet: ${error.code}: ${error.shortMessage}\n`)
  else process.stderr.write(`agentwallet: unexpected error: ${(error as Error)?.message ?? String(error)}\n`)
  process.exit(1)
})

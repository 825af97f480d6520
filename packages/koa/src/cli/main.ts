#!/usr/bin/env node
import { isAgentWalletError } from '@agentwallet/core'
import { auditCommand } from './auditCommand.js'
import { CliError } from './cliError.js'
import { cliVersion, commandHelp, usage } from './commandHelp.js'
import { devnetCommand } from './devnetCommand.js'
import { devnetDeployCommand } from './devnetDeployCommand.js'
import { faucetCommand } from './faucetCommand.js'
import { keys } from './keys.js'
import { loadConfig, parseCli } from './loadConfig.js'
import { mcpCommand } from './mcpCommand.js'
import { migrateCommand } from './migrateCommand.js'
import { permissionProblem } from './permissionProblem.js'
import { rotateMasterKeyCommand } from './rotateMasterKeyCommand.js'
import { serve } from './serve.js'
import { solanaDevnetCommand } from './solanaDevnetCommand.js'

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const print = (line: string): void => {
    process.stdout.write(`${line}\n`)
  }
  const { command, rest, values } = parseCli(argv)
  if (values.version) return print(cliVersion())
  if (command === 'help') return print(commandHelp[rest[0] ?? ''] ?? usage)
  if (values.help || command === undefined) return print(commandHelp[command ?? ''] ?? usage)
  if (!(command in commandHelp)) throw new CliError(`Unknown command "${command}"\n\n${usage}`)
  if (command === 'devnet' && values.port === undefined && env.AGENTWALLET_PORT === undefined)
    values.port = values.solana ? '8899' : '8545'
  const config = loadConfig(values, env)
  if (command === 'keys') return keys(rest, values, config, env, print)
  if (command === 'faucet') return faucetCommand(rest, config, env, print)
  if (command === 'migrate') return migrateCommand(config, print)
  if (command === 'audit') return auditCommand(rest, values, config, env, print)
  if (command === 'rotate-master-key') return rotateMasterKeyCommand(config, env, print)
  if (command === 'devnet' && rest[0] === 'deploy') return devnetDeployCommand(values, env, print)
  const running: { close(): Promise<void>; closed?: Promise<void> } =
    command === 'serve'
      ? await serve(config, env, print)
      : command === 'mcp'
        ? await mcpCommand(config, env)
        : values.solana
          ? await solanaDevnetCommand(config, print)
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
  const denied = permissionProblem(error)
  if (denied) process.stderr.write(`agentwallet: ${denied.message}\n`)
  else if (error instanceof CliError) process.stderr.write(`agentwallet: ${error.message}\n`)
  else if (isAgentWalletError(error))
    process.stderr.write(`agentwallet: ${error.code}: ${error.shortMessage}\n`)
  else process.stderr.write(`agentwallet: unexpected error: ${(error as Error)?.message ?? String(error)}\n`)
  process.exit(1)
})

import { CliError } from './cliError.js'
import type { Env, ServerConfig } from './loadConfig.js'
import { callServer, findRunningServer } from './runningServer.js'
import type { Print } from './serve.js'

/**
 * `agentwallet faucet <address> [eth]`: test ETH from the running server's devnet
 * (`POST /devnet/faucet`, as the root admin; at most 100 ETH a call).
 * @example await faucetCommand(['0x7099…79C8', '5'], config, process.env, console.log)
 */
export async function faucetCommand(
  rest: string[],
  config: ServerConfig,
  env: Env,
  print: Print,
): Promise<void> {
  const [address, amount] = rest
  if (!address) throw new CliError('faucet needs an address: agentwallet faucet <address> [eth]')
  const server = await findRunningServer(config, env)
  if (!server)
    throw new CliError(
      `faucet needs a running server on ${config.dataDir}: start it with \`agentwallet serve\` (another data dir: --data-dir)`,
    )
  const funded = await callServer<{ address: string; chain: string; amount: string; balance: string }>(
    server,
    'POST',
    '/devnet/faucet',
    { address, ...(amount === undefined ? {} : { amount }) },
  )
  print(`Added ${funded.amount} ETH to ${funded.address} on ${funded.chain}; balance ${funded.balance} ETH`)
}

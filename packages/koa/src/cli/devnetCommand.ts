import { join } from 'node:path'
import { createDevnet } from '@agentwallet/devnet'
import type { ServerConfig } from './loadConfig.js'
import type { Print } from './serve.js'

/**
 * `agentwallet devnet`: the embedded chain (persisted in `<data-dir>/devnet`) as JSON-RPC on
 * 127.0.0.1, for wallets, scripts and several server replicas to share.
 * @example await devnetCommand({ ...config, port: 8545 }, console.log)
 */
export async function devnetCommand(config: ServerConfig, print: Print): Promise<{ close(): Promise<void> }> {
  const devnet = await createDevnet({
    dataDir: config.storage === 'memory' ? undefined : join(config.dataDir, 'devnet'),
  })
  const server = await devnet.serve({ port: config.port, host: config.host })
  print(`Devnet JSON-RPC (chain id ${devnet.chain.id}) on ${server.url}`)
  print(`Serve with it: agentwallet serve --chain devnet=${server.url}`)
  return {
    async close() {
      await server.close()
      await devnet.close()
    },
  }
}

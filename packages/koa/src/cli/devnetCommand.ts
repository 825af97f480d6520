import { join } from 'node:path'
import { createDevnet } from '@agentwallet/devnet'
import type { ServerConfig } from './loadConfig.js'
import type { Print } from './serve.js'
import { serveHeldChain } from './serveHeldChain.js'

/**
 * `agentwallet devnet`: the embedded chain (persisted in `<data-dir>/devnet`, which it holds) as JSON-RPC
 * on 127.0.0.1, for wallets, scripts and several server replicas to share.
 * @example await devnetCommand({ ...config, port: 8545 }, console.log)
 */
export async function devnetCommand(config: ServerConfig, print: Print): Promise<{ close(): Promise<void> }> {
  const dataDir = config.storage === 'memory' ? undefined : join(config.dataDir, 'devnet')
  // Only the chain's own dir: a server on this data dir may use the chain over RPC.
  return serveHeldChain(
    dataDir,
    'devnet',
    () => createDevnet({ dataDir, blockTime: config.blockTime }),
    async (devnet) => {
      const server = await devnet.serve({ port: config.port, host: config.host })
      const mining = config.blockTime ? `a block every ${config.blockTime} s` : 'a block per send'
      print(`Devnet JSON-RPC (chain id ${devnet.chain.id}, ${mining}) on ${server.url}`)
      print(`Serve with it: agentwallet serve --chain devnet=${server.url}`)
      return server
    },
  )
}

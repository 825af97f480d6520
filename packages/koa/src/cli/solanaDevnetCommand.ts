import { join } from 'node:path'
import { createSolanaDevnet } from '@agentwallet/solana-devnet'
import type { ServerConfig } from './loadConfig.js'
import type { Print } from './serve.js'
import { serveHeldChain } from './serveHeldChain.js'

/**
 * `agentwallet devnet --solana`: the embedded Solana devnet (persisted in `<data-dir>/solana-devnet`,
 * which it holds) as Solana JSON-RPC over HTTP and WebSocket on 127.0.0.1.
 * @example await solanaDevnetCommand({ ...config, port: 8899 }, console.log)
 */
export async function solanaDevnetCommand(
  config: ServerConfig,
  print: Print,
): Promise<{ close(): Promise<void> }> {
  const dataDir = config.storage === 'memory' ? undefined : join(config.dataDir, 'solana-devnet')
  return serveHeldChain(
    dataDir,
    'devnet --solana',
    // Slots of 400 ms as on a cluster: a blockhash lasts 150 of them (a minute), however busy the chain.
    () => createSolanaDevnet({ dataDir, slotMs: 400 }),
    async (devnet) => {
      const server = await devnet.serve({ port: config.port, host: config.host })
      print(
        `Solana devnet JSON-RPC (LiteSVM, 400 ms slots) on ${server.url}, subscriptions on ${server.wsUrl}`,
      )
      print(`Mints: ${devnet.addressBook.mints.map((mint) => `${mint.symbol} ${mint.address}`).join(', ')}`)
      return server
    },
  )
}

import { holdDataDir } from './holdDataDir.js'

/** Something that closes: a devnet, its JSON-RPC server. */
type Closable = { close(): Promise<void> }

/**
 * Runs a chain for `agentwallet devnet` (EVM or `--solana`) holding its data dir (when it has one):
 * `start` opens the chain, `listen` serves it and prints where; closing stops the server, then the
 * chain, then lets the dir go. A failure on the way closes what was opened and lets the dir go.
 * @example return serveHeldChain(dataDir, 'devnet', () => createDevnet({ dataDir }), (devnet) => devnet.serve({ port }))
 */
export async function serveHeldChain<Chain extends Closable>(
  dataDir: string | undefined,
  holder: string,
  start: () => Promise<Chain>,
  listen: (chain: Chain) => Promise<Closable>,
): Promise<Closable> {
  const lock = dataDir ? holdDataDir(dataDir, holder) : { release() {} }
  let chain: Chain | undefined
  try {
    chain = await start()
    const server = await listen(chain)
    const opened = chain
    return {
      async close() {
        await server.close()
        await opened.close()
        lock.release()
      },
    }
  } catch (error) {
    await chain?.close()
    lock.release()
    throw error
  }
}

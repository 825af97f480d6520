import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { lockDataDir } from '@agentwallet/core'
import type { Address, RpcTransport, Signature } from '@solana/kit'
import { createFaucet } from './createFaucet.js'
import { createGenesis } from './createGenesis.js'
import { createRpcHandler, inProcessTransport } from './createRpcHandler.js'
import { createSolanaChain } from './createSolanaChain.js'
import { openJournal } from './openJournal.js'
import { type SolanaDevnetServer, type SolanaServeOptions, serveSolanaDevnet } from './serveSolanaDevnet.js'
import { type SolanaDevnetAddressBook, solanaDevnetAddressBook } from './solanaDevnetAddressBook.js'

export type CreateSolanaDevnetOptions = {
  /** Keep the chain here across restarts (`solana-journal.jsonl`). Without it the chain lives in memory. */
  dataDir?: string | undefined
  /**
   * Milliseconds a slot stays open, so transactions within it share a block (a cluster's is 400).
   * Default 0: a block per landed transaction — then a blockhash outlives only the next 150 transactions.
   */
  slotMs?: number | undefined
}

export type SolanaDevnet = {
  /** `@solana/kit`'s transport, in process: `createSolanaRpcFromTransport(devnet.transport)`. */
  transport: RpcTransport
  addressBook: SolanaDevnetAddressBook
  /** Sends `lamports` from the faucet to `to`; resolves with the signature (landed). */
  airdrop(to: Address, lamports: bigint): Promise<Signature>
  /** Mints a test token (address or symbol, e.g. 'USDC') to `owner`'s associated token account. */
  mintTokens(
    mint: string,
    owner: Address,
    amount: bigint,
  ): Promise<{ signature: Signature; tokenAccount: Address }>
  /** Mines `blocks` empty blocks (blockhashes expire 150 blocks after they were handed out). */
  advanceBlocks(blocks: bigint): void
  /** Serves the same chain as JSON-RPC over HTTP and WebSocket on 127.0.0.1 (default port 8899). */
  serve(options?: SolanaServeOptions): Promise<SolanaDevnetServer>
  close(): Promise<void>
}

/**
 * Starts the embedded Solana devnet: LiteSVM in process with the SPL programs, two test mints (USDC, 6
 * decimals; DEV, 9) and a faucet, behind the Solana JSON-RPC methods a wallet uses.
 * @example const devnet = await createSolanaDevnet(); const rpc = createSolanaRpcFromTransport(devnet.transport)
 */
export async function createSolanaDevnet(options: CreateSolanaDevnetOptions = {}): Promise<SolanaDevnet> {
  const { dataDir } = options
  if (dataDir) mkdirSync(dataDir, { recursive: true })
  const unlock = dataDir
    ? lockDataDir(dataDir, { name: 'solana devnet', file: 'solana-devnet.lock' })
    : () => {}
  try {
    const genesis = await createGenesis()
    const journal = dataDir ? openJournal(join(dataDir, 'solana-journal.jsonl')) : undefined
    const chain = createSolanaChain(genesis, {
      record: (entry) => journal?.append(entry),
      slotMs: options.slotMs,
    })
    if (journal) chain.replay(journal.entries)
    const faucet = createFaucet(chain, genesis)
    const addressBook = solanaDevnetAddressBook(genesis)
    const handle = createRpcHandler({ chain, faucet, addressBook })
    const servers = new Set<SolanaDevnetServer>()
    let closed = false
    return {
      transport: inProcessTransport(handle) as RpcTransport,
      addressBook,
      airdrop: (to, lamports) => faucet.airdrop(to, lamports),
      mintTokens: (mint, owner, amount) => faucet.mintTokens(mint, owner, amount),
      advanceBlocks: (blocks) => chain.advance(blocks),
      async serve(serveOptions) {
        const server = await serveSolanaDevnet(handle, chain, serveOptions)
        servers.add(server)
        return {
          ...server,
          close: async () => {
            servers.delete(server)
            await server.close()
          },
        }
      },
      async close() {
        if (closed) return
        closed = true
        await Promise.all([...servers].map((server) => server.close()))
        servers.clear()
        unlock()
      },
    }
  } catch (error) {
    unlock()
    throw error
  }
}

import { type ChainConfig, publicChains, type SolanaAddressBook } from '@agentwallet/core'
import { fetchDevnetAddressBook } from '@agentwallet/devnet'
import { CliError } from './cliError.js'

/** The devnet's chain id (also anvil's and hardhat's). */
const devnetChainId = 31337

/**
 * `--chain name=rpcUrl[,rpcUrl…]` as chain configs. Each node is asked its chain id (a name like
 * `devnet` is not a public chain, so the id must come from somewhere), and a 31337 node is asked for
 * the devnet address book: an `agentwallet devnet` answers it, so swaps, Safe, ENS and ERC-8004 work
 * over RPC exactly as on the embedded devnet; an anvil answers nothing and gets no contracts. A node
 * that has no chain id but a genesis hash is a Solana chain (`family: 'solana'`), with the address
 * book an `agentwallet devnet --solana` answers.
 * @example const chains = await resolveChains({ devnet: 'http://127.0.0.1:8545' })
 */
export async function resolveChains(named: Record<string, string[]>): Promise<Record<string, ChainConfig>> {
  const entries = await Promise.all(
    Object.entries(named).map(async ([name, rpcUrls]): Promise<[string, ChainConfig]> => {
      const urls = rpcUrls.length > 1 ? { rpcUrls } : { rpcUrl: rpcUrls[0] }
      // A public chain's id is known (and it is no devnet); a WebSocket URL cannot be probed with fetch.
      const probed = rpcUrls.filter((url) => /^https?:/.test(url))
      if (publicChains[name] || probed.length === 0) return [name, urls]
      // The first URL that answers speaks for the chain: one down at start does not stop the server.
      const answer = await firstAnswer(probed, readChainId)
      // No chain id: a Solana node answers its genesis hash instead.
      if (answer === undefined && (await firstAnswer(probed, readGenesisHash))) {
        return [name, await solanaChain(name, rpcUrls)]
      }
      if (answer === undefined) {
        throw new CliError(
          `Cannot reach chain "${name}" at ${probed.map(redact).join(' or ')} to read its chain id`,
        )
      }
      const { url, value: chainId } = answer
      const contracts =
        chainId === devnetChainId ? await fetchDevnetAddressBook(url).catch(() => undefined) : undefined
      return [name, { ...urls, chainId, ...(contracts ? { contracts } : {}) }]
    }),
  )
  return Object.fromEntries(entries)
}

async function firstAnswer<T>(
  urls: readonly string[],
  read: (url: string) => Promise<T>,
): Promise<{ url: string; value: T } | undefined> {
  for (const url of urls) {
    const value = await read(url).catch(() => undefined)
    if (value !== undefined) return { url, value }
  }
  return undefined
}

async function readChainId(rpcUrl: string): Promise<number> {
  const result = await rpcCall(rpcUrl, 'eth_chainId')
  if (typeof result !== 'string') throw new Error('no chain id')
  return Number(BigInt(result))
}

async function readGenesisHash(rpcUrl: string): Promise<string> {
  const result = await rpcCall(rpcUrl, 'getGenesisHash')
  if (typeof result !== 'string') throw new Error('no genesis hash')
  return result
}

/**
 * A Solana chain at one URL, with the address book (mints, prices) an `agentwallet devnet --solana`
 * answers; a cluster answers none and gets an empty one.
 */
async function solanaChain(name: string, rpcUrls: string[]): Promise<ChainConfig> {
  if (rpcUrls.length > 1)
    throw new CliError(`Solana chain "${name}" takes one RPC URL, not ${rpcUrls.length}`)
  const rpcUrl = rpcUrls[0]!
  const addressBook = (await rpcCall(rpcUrl, 'agentwallet_addressBook').catch(() => undefined)) as
    | SolanaAddressBook
    | undefined
  return { family: 'solana', rpcUrl, ...(addressBook ? { addressBook } : {}) }
}

async function rpcCall(rpcUrl: string, method: string): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
    signal: AbortSignal.timeout(5_000),
  })
  const { result } = (await response.json()) as { result?: unknown }
  return result
}

/** An RPC URL without credentials or path (API keys often sit in either). */
function redact(rpcUrl: string): string {
  try {
    const url = new URL(rpcUrl)
    return `${url.protocol}//${url.host}`
  } catch {
    return 'the configured URL'
  }
}

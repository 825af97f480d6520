import { type ChainConfig, publicChains } from '@agentwallet/core'
import { fetchDevnetAddressBook } from '@agentwallet/devnet'
import { CliError } from './cliError.js'

/** The devnet's chain id (also anvil's and hardhat's). */
const devnetChainId = 31337

/**
 * `--chain name=rpcUrl` pairs as chain configs. Each node is asked its chain id (a name like
 * `devnet` is not a public chain, so the id must come from somewhere), and a 31337 node is asked for
 * the devnet address book: an `agentwallet devnet` answers it, so swaps, Safe, ENS and ERC-8004 work
 * over RPC exactly as on the embedded devnet; an anvil answers nothing and gets no contracts.
 * @example const chains = await resolveChains({ devnet: 'http://127.0.0.1:8545' })
 */
export async function resolveChains(named: Record<string, string>): Promise<Record<string, ChainConfig>> {
  const entries = await Promise.all(
    Object.entries(named).map(async ([name, rpcUrl]): Promise<[string, ChainConfig]> => {
      // A public chain's id is known (and it is no devnet); a WebSocket URL cannot be probed with fetch.
      if (publicChains[name] || !/^https?:/.test(rpcUrl)) return [name, { rpcUrl }]
      const chainId = await readChainId(rpcUrl).catch(() => undefined)
      if (chainId === undefined) {
        throw new CliError(`Cannot reach chain "${name}" at ${redact(rpcUrl)} to read its chain id`)
      }
      const contracts =
        chainId === devnetChainId ? await fetchDevnetAddressBook(rpcUrl).catch(() => undefined) : undefined
      return [name, { rpcUrl, chainId, ...(contracts ? { contracts } : {}) }]
    }),
  )
  return Object.fromEntries(entries)
}

async function readChainId(rpcUrl: string): Promise<number> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    signal: AbortSignal.timeout(5_000),
  })
  const { result } = (await response.json()) as { result?: unknown }
  if (typeof result !== 'string') throw new Error('no chain id')
  return Number(BigInt(result))
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

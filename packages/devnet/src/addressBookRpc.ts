import type { DevnetAddressBook } from './deployProtocols.js'
import type { DevnetProvider } from './types.js'

/** The JSON-RPC method a served devnet answers with its address book (no params). */
export const addressBookMethod = 'agentwallet_addressBook'

/**
 * `provider`, plus `agentwallet_addressBook`: what `devnet.serve()` exposes, so a process that reaches
 * the devnet only over JSON-RPC (a server replica) learns where the protocol contracts are.
 * @example serveDevnet(withAddressBook(devnet.provider, devnet.addressBook))
 */
export function withAddressBook(provider: DevnetProvider, addressBook: DevnetAddressBook): DevnetProvider {
  return {
    request(args) {
      if (args.method === addressBookMethod) return Promise.resolve(structuredClone(addressBook))
      return provider.request(args)
    },
  }
}

/**
 * Asks the node at `rpcUrl` for the devnet address book. `undefined` when the node does not know the
 * method (anvil, hardhat, a public chain): its chain id alone says nothing about its contracts.
 * @example const contracts = await fetchDevnetAddressBook('http://127.0.0.1:8545')
 */
export async function fetchDevnetAddressBook(
  rpcUrl: string,
  options: { timeoutMs?: number | undefined } = {},
): Promise<DevnetAddressBook | undefined> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: addressBookMethod, params: [] }),
    signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
  })
  const body = (await response.json().catch(() => undefined)) as { result?: unknown } | undefined
  const book = body?.result as DevnetAddressBook | undefined
  return book && typeof book === 'object' && Array.isArray(book.tokens) ? book : undefined
}

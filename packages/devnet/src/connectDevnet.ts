import type { Devnet } from './createDevnet.js'
import type { DevnetAddressBook } from './deployProtocols.js'
import { devnetAccounts } from './devnetAccounts.js'
import { devnetActions } from './devnetActions.js'
import { devnetChain } from './devnetChain.js'
import { httpProvider } from './httpProvider.js'

/**
 * A {@link Devnet} over another dev node (anvil, hardhat) at `rpcUrl` that holds the protocol set
 * `addressBook` names (`deployProtocolSet`, or `agentwallet devnet deploy`): the same faucet, mint,
 * time and mining actions, through the development methods the nodes share. The node is the
 * caller's: `serve()` hands out its own URL and `close()` leaves it running.
 * @example const devnet = await connectDevnet({ rpcUrl: anvil.url, addressBook })
 */
export async function connectDevnet({
  rpcUrl,
  addressBook,
}: {
  rpcUrl: string
  addressBook: DevnetAddressBook
}): Promise<Devnet> {
  const provider = httpProvider(rpcUrl)
  const chainId = Number(BigInt(await provider.request({ method: 'eth_chainId', params: [] })))
  if (chainId !== devnetChain.id)
    throw new Error(`A devnet is chain ${devnetChain.id}; the node at ${rpcUrl} is chain ${chainId}`)
  return {
    ...devnetActions(provider, chainId, addressBook),
    provider,
    chain: devnetChain,
    addressBook,
    accounts: devnetAccounts,
    serve: async () => ({ url: rpcUrl, close: async () => {} }),
    close: async () => {},
  }
}

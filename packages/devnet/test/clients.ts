import {
  type Chain,
  type CustomTransport,
  createPublicClient,
  createWalletClient,
  custom,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
  type WalletClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Devnet } from '../src/index.js'

export type TestWallet = WalletClient<CustomTransport, Chain, PrivateKeyAccount>

/** viem clients over the devnet's EIP-1193 provider; `wallet(i)` signs locally with account i. */
export function clientsFor(devnet: Devnet): {
  publicClient: PublicClient
  wallet: (index: number) => TestWallet
} {
  const transport = custom(devnet.provider, { retryCount: 0 })
  const publicClient = createPublicClient({ chain: devnet.chain, transport })
  const wallet = (index: number) => {
    const key = devnet.accounts[index]?.privateKey as Hex
    return createWalletClient({ chain: devnet.chain, transport, account: privateKeyToAccount(key) })
  }
  return { publicClient, wallet }
}

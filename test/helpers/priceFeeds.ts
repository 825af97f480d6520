import { aggregatorV3Abi, type Devnet, devnetDeployer, devnetPrices } from '@agentwallet/devnet'
import { type Address, createWalletClient, custom } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { publicClientOf } from './devnetAgentWallet.js'

export type DevnetPair = keyof typeof devnetPrices

/**
 * Posts a new round to a devnet price feed (only the devnet deployer may), mined before it returns.
 * @example await setFeedAnswer(devnet, 'ETH/USD', 6000_00000000n)
 */
export async function setFeedAnswer(devnet: Devnet, pair: DevnetPair, answer: bigint): Promise<void> {
  const wallet = createWalletClient({
    account: privateKeyToAccount(devnetDeployer.privateKey),
    chain: devnet.chain,
    transport: custom(devnet.provider),
  })
  const hash = await wallet.writeContract({
    address: devnet.addressBook.priceFeeds[pair],
    abi: aggregatorV3Abi,
    functionName: 'updateAnswer',
    args: [answer],
  })
  const receipt = await publicClientOf(devnet).waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`updateAnswer on ${pair} reverted`)
}

/** Restores every devnet feed to its initial answer (a new round, written now). */
export async function resetFeeds(devnet: Devnet): Promise<void> {
  for (const [pair, answer] of Object.entries(devnetPrices) as [DevnetPair, bigint][]) {
    await setFeedAnswer(devnet, pair, answer)
  }
}

/**
 * An EIP-1193 provider over the devnet's that counts `eth_call`s to the given contracts, so a test
 * can prove which requests read price feeds.
 * @example const counted = countingCalls(devnet, Object.values(devnet.addressBook.priceFeeds))
 */
export function countingCalls(devnet: Devnet, contracts: readonly Address[]) {
  const watched = new Set(contracts.map((address) => address.toLowerCase()))
  let calls = 0
  const provider: Devnet['provider'] = {
    request(args) {
      if (args.method === 'eth_call') {
        const [call] = (args.params ?? []) as [{ to?: string } | undefined]
        if (call?.to && watched.has(call.to.toLowerCase())) calls++
      }
      return devnet.provider.request(args)
    },
  }
  return { provider, calls: () => calls }
}

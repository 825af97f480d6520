import { readFileSync } from 'node:fs'
import type { ChainHandle } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import {
  type Abi,
  type Address,
  createWalletClient,
  custom,
  type Hex,
  type PublicClient,
  parseEther,
  type WalletClient,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { publicClientOf } from './devnetAgentWallet.js'

/** The devnet as core's effects module sees it: a ChainHandle over its provider and address book. */
export function chainHandleOf(devnet: Devnet, client: PublicClient = publicClientOf(devnet)): ChainHandle {
  return {
    name: 'devnet',
    chainId: devnet.chain.id,
    nativeSymbol: 'ETH',
    nativeDecimals: 18,
    testnet: true,
    client,
    contracts: devnet.addressBook,
  }
}

/** A fresh funded account that signs its own transactions: the holder whose effects a test reads. */
export async function fundedSigner(devnet: Devnet, eth = '10'): Promise<WalletClient & { address: Address }> {
  const account = privateKeyToAccount(generatePrivateKey())
  await devnet.faucet(account.address, parseEther(eth))
  const client = createWalletClient({ account, chain: devnet.chain, transport: custom(devnet.provider) })
  return Object.assign(client, { address: account.address })
}

const artifacts = JSON.parse(
  readFileSync(new URL('../../packages/devnet/artifacts/devnet-contracts.json', import.meta.url), 'utf8'),
) as { contracts: Record<string, { abi: Abi; bytecode: Hex }> }

/** Deploys one of the devnet's compiled contracts (packages/devnet/contracts) and returns its address. */
export async function deployDevnetContract(
  devnet: Devnet,
  signer: WalletClient & { address: Address },
  name: string,
  args: readonly unknown[] = [],
): Promise<Address> {
  const artifact = artifacts.contracts[name]
  if (!artifact) throw new Error(`no compiled ${name}`)
  const hash = await signer.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args,
    account: signer.account!,
    chain: devnet.chain,
  })
  const receipt = await publicClientOf(devnet).waitForTransactionReceipt({ hash })
  if (!receipt.contractAddress || receipt.status !== 'success') throw new Error(`deploying ${name} failed`)
  return receipt.contractAddress
}

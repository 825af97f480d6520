import { type Hex, parseEther } from 'viem'
import { createDeployer, type Deployer } from './createDeployer.js'
import { type DevnetAddressBook, deployProtocols } from './deployProtocols.js'
import { devnetDeployer } from './devnetAccounts.js'
import { loadSingletonFactoryDeployment } from './loadArtifact.js'
import type { DevnetProvider } from './types.js'

/**
 * What the deployer spends on the set, with room: 3,000 ETH wrapped to seed the V2 (1,000) and V3
 * (2,000) pools, and gas. Our devnet gives it more at genesis; elsewhere the funding key sends this
 * (anvil's and hardhat's accounts hold 10,000 ETH each).
 */
export const deployerFunding = parseEther('3100')
/** The Safe singleton factory's signer pays its presigned deployment (100 gwei × 100,000 gas). */
const factorySignerFunding = parseEther('0.01')

export type DeployProtocolSetOptions = {
  /** A funded key of the node (anvil's and hardhat's first account works as it is): it pays for everything. */
  fundingKey: Hex
  /** Seconds between an ENS commit and its register (default 1, as on our devnet). */
  ensMinCommitmentAge?: number | undefined
}

/**
 * Deploys the devnet's protocol set (the same npm artifacts, in the same order) onto any dev node
 * whose chain id is 31337 (anvil, hardhat; the Safe singleton factory's presigned deployment is for
 * that id): the balances our devnet sets at genesis — the deployer's, the factory signer's — are sent
 * from `fundingKey` first, then the devnet's own deployer deploys, so a fresh node gets the devnet's
 * addresses. Resolves with the address book.
 * @example const book = await deployProtocolSet(httpProvider(url), { fundingKey: devnetAccounts[0].privateKey })
 */
export async function deployProtocolSet(
  provider: DevnetProvider,
  options: DeployProtocolSetOptions,
): Promise<DevnetAddressBook> {
  const chainId = Number(BigInt(await provider.request({ method: 'eth_chainId', params: [] })))
  if (chainId !== 31337)
    throw new Error(
      `The protocol set deploys onto chain id 31337 only (the Safe singleton factory's presigned deployment is for it); this node is chain ${chainId}`,
    )
  const funder = await createDeployer(provider, chainId, options.fundingKey)
  const factory = loadSingletonFactoryDeployment()
  await topUp(provider, funder, devnetDeployer.address, deployerFunding)
  if ((await provider.request({ method: 'eth_getCode', params: [factory.address, 'latest'] })) === '0x')
    await topUp(provider, funder, factory.signerAddress, factorySignerFunding)
  return deployProtocols(provider, {
    chainId,
    deployerKey: devnetDeployer.privateKey,
    ensMinCommitmentAge: options.ensMinCommitmentAge ?? 1,
  })
}

async function topUp(
  provider: DevnetProvider,
  funder: Deployer,
  address: Hex,
  amount: bigint,
): Promise<void> {
  const balance = BigInt(await provider.request({ method: 'eth_getBalance', params: [address, 'latest'] }))
  if (balance < amount) await funder.send({ to: address, value: amount - balance })
}

import { type Address, encodeFunctionData, labelhash, namehash, zeroHash } from 'viem'
import { ensBaseRegistrarAbi } from './abis/ensBaseRegistrarAbi.js'
import { ensRegistryAbi } from './abis/ensRegistryAbi.js'
import type { Deployer } from './createDeployer.js'
import { loadArtifact } from './loadArtifact.js'

/**
 * Yearly rent in attodollars per second by name length (index = length - 1), as on mainnet:
 * $640 for 3 characters, $160 for 4, $5 for 5 and more. Shorter names cannot be registered.
 */
const rentPrices = [0n, 0n, 20294266869609n, 5073566717402n, 158548959918n]
/** A commitment is valid for a day, like mainnet. */
const maxCommitmentAge = 86_400n

/**
 * Deploys the 2020-era mainnet `.eth` stack from the real ENS build artifacts: registry, base
 * registrar (owner of `eth`), commit/reveal controller priced in USD through the ETH/USD feed,
 * public resolver, and the reverse registrar (owner of `addr.reverse`).
 */
export async function deployEns(
  deployer: Deployer,
  { ethUsdFeed, minCommitmentAge }: { ethUsdFeed: Address; minCommitmentAge: number },
) {
  const registry = await deployer.deploy(loadArtifact('ens-ethregistrar', 'ENSRegistry'))
  const setSubnodeOwner = (node: `0x${string}`, label: string, owner: Address) =>
    deployer.send({
      to: registry,
      data: encodeFunctionData({
        abi: ensRegistryAbi,
        functionName: 'setSubnodeOwner',
        args: [node, labelhash(label), owner],
      }),
    })

  const publicResolver = await deployer.deploy(loadArtifact('ens-resolver', 'PublicResolver'), [registry])
  const baseRegistrar = await deployer.deploy(
    loadArtifact('ens-ethregistrar', 'BaseRegistrarImplementation'),
    [registry, namehash('eth')],
  )
  await setSubnodeOwner(zeroHash, 'eth', baseRegistrar)
  const priceOracle = await deployer.deploy(loadArtifact('ens-ethregistrar', 'StablePriceOracle'), [
    ethUsdFeed,
    rentPrices,
  ])
  const controller = await deployer.deploy(loadArtifact('ens-ethregistrar', 'ETHRegistrarController'), [
    baseRegistrar,
    priceOracle,
    BigInt(minCommitmentAge),
    maxCommitmentAge,
  ])
  await deployer.send({
    to: baseRegistrar,
    data: encodeFunctionData({ abi: ensBaseRegistrarAbi, functionName: 'addController', args: [controller] }),
  })

  await setSubnodeOwner(zeroHash, 'reverse', deployer.address)
  const reverseRegistrar = await deployer.deploy(loadArtifact('ens-resolver', 'ReverseRegistrar'), [
    registry,
    publicResolver,
  ])
  await setSubnodeOwner(namehash('reverse'), 'addr', reverseRegistrar)

  // The 2020-era controller: `registerWithConfig`, `rentPrice` as one uint256.
  return {
    registry,
    baseRegistrar,
    controller,
    publicResolver,
    reverseRegistrar,
    priceOracle,
    controllerAbi: 'legacy' as const,
  }
}

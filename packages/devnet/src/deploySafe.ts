import { type Address, concat, getContractAddress, type Hex, zeroHash } from 'viem'
import type { Deployer } from './createDeployer.js'
import { loadArtifact, loadSingletonFactoryDeployment } from './loadArtifact.js'
import type { DevnetProvider } from './types.js'

const safeContracts = {
  singleton: 'Safe',
  singletonL2: 'SafeL2',
  proxyFactory: 'SafeProxyFactory',
  fallbackHandler: 'CompatibilityFallbackHandler',
  multiSend: 'MultiSend',
  multiSendCallOnly: 'MultiSendCallOnly',
} as const

/**
 * Deploys Safe v1.4.1 through the Safe singleton factory (its presigned transaction for chain 31337,
 * then CREATE2 with salt 0), which puts every contract at its canonical public-chain address.
 * The factory's signer is funded at genesis. A contract already at its address is left as it is.
 */
export async function deploySafe(provider: DevnetProvider, deployer: Deployer) {
  const factory = loadSingletonFactoryDeployment()
  const code: Hex = await provider.request({ method: 'eth_getCode', params: [factory.address, 'latest'] })
  if (code === '0x') await deployer.sendRaw(factory.transaction)

  const addresses: Partial<Record<keyof typeof safeContracts, Address>> = {}
  for (const [key, contract] of Object.entries(safeContracts) as [keyof typeof safeContracts, string][]) {
    const { bytecode } = loadArtifact('safe', contract)
    const address = getContractAddress({ opcode: 'CREATE2', from: factory.address, salt: zeroHash, bytecode })
    addresses[key] = address
    const codeAt = (): Promise<Hex> =>
      provider.request({ method: 'eth_getCode', params: [address, 'latest'] })
    // Already at its canonical address (a node the set was deployed onto before): CREATE2 would collide.
    if ((await codeAt()) !== '0x') continue
    await deployer.send({ to: factory.address, data: concat([zeroHash, bytecode]) })
    if ((await codeAt()) === '0x') throw new Error(`Safe ${contract} was not deployed at ${address}`)
  }
  return addresses as Record<keyof typeof safeContracts, Address>
}

import { readFileSync } from 'node:fs'
import type { Abi, Hex } from 'viem'

export type Artifact = { abi: Abi; bytecode: Hex }

export type ArtifactFile =
  | 'uniswap-v2-core'
  | 'uniswap-v2-periphery'
  | 'uniswap-v3-core'
  | 'uniswap-v3-periphery'
  | 'uniswap-swap-router'
  | 'safe'
  | 'ens-ethregistrar'
  | 'ens-resolver'
  | 'devnet-contracts'
  | 'account-abstraction'
  | 'delegation-framework'

const cache = new Map<ArtifactFile, Record<string, Artifact>>()

/**
 * The abi and creation bytecode of one contract from packages/devnet/artifacts/.
 * `../artifacts` resolves from both src/ and dist/, so the built package finds the same files.
 */
export function loadArtifact(file: ArtifactFile, contract: string): Artifact {
  let contracts = cache.get(file)
  if (!contracts) {
    const url = new URL(`../artifacts/${file}.json`, import.meta.url)
    contracts = (JSON.parse(readFileSync(url, 'utf8')) as { contracts: Record<string, Artifact> }).contracts
    cache.set(file, contracts)
  }
  const artifact = contracts[contract]
  if (!artifact) throw new Error(`artifacts/${file}.json has no ${contract}`)
  return artifact
}

/** The presigned Safe singleton factory deployment for chain 31337. */
export function loadSingletonFactoryDeployment(): {
  signerAddress: Hex
  transaction: Hex
  address: Hex
  gasPrice: number
  gasLimit: number
} {
  const url = new URL('../artifacts/safe-singleton-factory.json', import.meta.url)
  return JSON.parse(readFileSync(url, 'utf8')).deployment
}

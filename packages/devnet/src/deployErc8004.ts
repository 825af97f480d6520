import type { Deployer } from './createDeployer.js'
import { loadArtifact } from './loadArtifact.js'

/** Deploys the ERC-8004 Identity registry and the Reputation and Validation registries bound to it. */
export async function deployErc8004(deployer: Deployer) {
  const identityRegistry = await deployer.deploy(loadArtifact('devnet-contracts', 'IdentityRegistry'))
  const reputationRegistry = await deployer.deploy(loadArtifact('devnet-contracts', 'ReputationRegistry'), [
    identityRegistry,
  ])
  const validationRegistry = await deployer.deploy(loadArtifact('devnet-contracts', 'ValidationRegistry'), [
    identityRegistry,
  ])
  return { identityRegistry, reputationRegistry, validationRegistry }
}

import { type Address, encodeFunctionData } from 'viem'
import { verifyingPaymasterAbi } from './abis/verifyingPaymasterAbi.js'
import type { Deployer } from './createDeployer.js'
import { loadArtifact } from './loadArtifact.js'

/**
 * Deploys the devnet's VerifyingPaymaster (contracts/VerifyingPaymaster.sol, on the EntryPoint v0.8's
 * BasePaymaster) against `entryPoint`, owned by the deployer, sponsoring what `signer` signs, and puts
 * `deposit` wei in its EntryPoint deposit (what sponsored gas is drawn from). A tenant tops it up
 * with the paymaster's `deposit()`; the owner rotates the signer with `setVerifyingSigner`.
 */
export async function deployVerifyingPaymaster(
  deployer: Deployer,
  { entryPoint, signer, deposit = 0n }: { entryPoint: Address; signer: Address; deposit?: bigint },
): Promise<Address> {
  const paymaster = await deployer.deploy(loadArtifact('devnet-contracts', 'VerifyingPaymaster'), [
    entryPoint,
    signer,
  ])
  if (deposit > 0n) {
    const data = encodeFunctionData({ abi: verifyingPaymasterAbi, functionName: 'deposit' })
    await deployer.send({ to: paymaster, data, value: deposit })
  }
  return paymaster
}

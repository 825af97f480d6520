import {
  type AccountAbstractionContracts,
  type AgentWallet,
  buildUserOperation,
  isAgentWalletError,
  relayerAccount,
  relayerBundler,
  signUserOperation,
  simulatedVerificationGas,
  smartWalletDeployment,
  walletCalldata,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, type PublicClient, parseEther } from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { freshAddress, publicClientOf, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet
let client: PublicClient
let aa: AccountAbstractionContracts
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

beforeAll(async () => {
  client = publicClientOf(devnet)
  aa = devnet.addressBook.accountAbstraction
  await devnet.faucet((await relayerAccount(aw.context, 'default')).address, parseEther('10'))
})

const bundler = () => relayerBundler(aw.context, { tenantId: 'default', chain: 'devnet' })
const noGas = { callGasLimit: 0n, verificationGasLimit: 0n, preVerificationGas: 0n }

/** A HybridDeleGator owned by a vault key, not deployed yet, holding 1 ETH at its counterfactual address. */
async function counterfactualWallet() {
  const owner = await aw.context.vault.createKey()
  const deployment = await smartWalletDeployment(aa, { owner })
  await devnet.faucet(deployment.address, parseEther('1'))
  return { owner, deployment }
}

/** The wallet's unsigned op paying `to` 1 wei, with its factory when `deploy`. */
async function operation(
  wallet: Awaited<ReturnType<typeof counterfactualWallet>>,
  nonce: bigint,
  deploy: boolean,
): Promise<UserOperation<'0.8'>> {
  return buildUserOperation({
    sender: wallet.deployment.address,
    nonce,
    callData: walletCalldata([{ to: freshAddress(), value: 1n }]),
    gas: noGas,
    fees: await client.estimateFeesPerGas(),
    deployment: deploy ? wallet.deployment : undefined,
  })
}

const signed = async (owner: Address, op: UserOperation<'0.8'>) =>
  signUserOperation(await aw.context.vault.getSigner(owner), op, {
    chainId: devnet.chain.id,
    entryPoint: aa.entryPoint,
    kind: 'HybridDeleGator',
  })

function included(hash: `0x${string}`) {
  return vi.waitFor(
    async () => {
      const receipt = await bundler().getUserOperationReceipt(hash)
      if (!receipt) throw new Error('not yet included')
      return receipt
    },
    { timeout: 20_000, interval: 20 },
  )
}

describe('the relayer’s gas estimate of a user operation', () => {
  it('simulates the validation: a first op deploying the account needs more than the next, each is included with its estimate', async () => {
    const wallet = await counterfactualWallet()
    const first = await operation(wallet, 0n, true)
    const firstGas = await bundler().estimateUserOperationGas(first, aa.entryPoint)
    const firstHash = await bundler().sendUserOperation(
      await signed(wallet.owner, { ...first, ...firstGas }),
      aa.entryPoint,
    )
    expect((await included(firstHash)).success).toBe(true)

    const next = await operation(wallet, 1n, false)
    const nextGas = await bundler().estimateUserOperationGas(next, aa.entryPoint)
    // Read before it is included: after, its nonce is spent and the validation fails (AA25) at any gas.
    const least = await simulatedVerificationGas(aw.context.chains.get('devnet'), next, aa.entryPoint)
    expect(least).toBeDefined()
    const nextHash = await bundler().sendUserOperation(
      await signed(wallet.owner, { ...next, ...nextGas }),
      aa.entryPoint,
    )
    expect((await included(nextHash)).success).toBe(true)

    // The factory's proxy deployment is in the first validation, not the next.
    expect(firstGas.verificationGasLimit - nextGas.verificationGasLimit).toBeGreaterThan(50_000n)
    // Each is the least the EntryPoint's validation completes with, plus the margin (20% and 10,000).
    expect(nextGas.verificationGasLimit).toBe((least! * 12n) / 10n + 10_000n)
    // Tighter than the fixed allowance it replaces (300,000 for an ECDSA account).
    expect(nextGas.verificationGasLimit).toBeLessThan(300_000n)
  })

  it('an op signed with too little verification gas is refused with the EntryPoint’s reason, and nothing is sent', async () => {
    const wallet = await counterfactualWallet()
    const first = await operation(wallet, 0n, true)
    const gas = await bundler().estimateUserOperationGas(first, aa.entryPoint)
    const least = await simulatedVerificationGas(aw.context.chains.get('devnet'), first, aa.entryPoint)
    const short = await signed(wallet.owner, { ...first, ...gas, verificationGasLimit: (least! * 9n) / 10n })
    const refused = await bundler()
      .sendUserOperation(short, aa.entryPoint)
      .then(
        () => undefined,
        (error: unknown) => error,
      )
    expect(isAgentWalletError(refused) && refused.code).toBe('user_operation_rejected')
    const reason = isAgentWalletError(refused) ? refused.details?.reason : undefined
    expect(reason).toMatch(/^AA(13|23|26) /)
    expect(await client.getCode({ address: wallet.deployment.address })).toBeUndefined()
  })
})

import {
  type AccountAbstractionContracts,
  type AgentWallet,
  relayerAccount,
  relayerBundler,
  type VaultSigner,
  verifyingPaymaster,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, type PublicClient, parseEther } from 'viem'
import { entryPoint08Abi, type UserOperation, type UserOperationReceipt } from 'viem/account-abstraction'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { freshAddress, publicClientOf, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'
import { callOperation, delegatedAccount, signedOperation } from '../helpers/sessionAccount.js'

let devnet: Devnet
let aw: AgentWallet
let client: PublicClient
let aa: AccountAbstractionContracts
let sponsor: VaultSigner
let paymaster: Address
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

beforeAll(async () => {
  client = publicClientOf(devnet)
  aa = devnet.addressBook.accountAbstraction
  await devnet.faucet((await relayerAccount(aw.context, 'default')).address, parseEther('10'))
  // The sponsor key is a key of the service's own vault, as a tenant's would be.
  sponsor = await aw.context.vault.getSigner(await aw.context.vault.createKey())
  paymaster = await devnet.deployVerifyingPaymaster({ signer: sponsor.address, deposit: parseEther('1') })
})

const bundler = () => relayerBundler(aw.context, { tenantId: 'default', chain: 'devnet' })

function depositOf(address: Address) {
  return client.readContract({
    address: aa.entryPoint,
    abi: entryPoint08Abi,
    functionName: 'balanceOf',
    args: [address],
  })
}

async function receiptOf(hash: `0x${string}`): Promise<UserOperationReceipt> {
  return vi.waitFor(
    async () => {
      const receipt = await bundler().getUserOperationReceipt(hash)
      if (!receipt) throw new Error('not yet included')
      return receipt
    },
    { timeout: 20_000, interval: 20 },
  )
}

/** The paymaster fields signed by the sponsor key for `op` (its gas and fees final). */
function sponsorship(op: UserOperation<'0.8'>) {
  return verifyingPaymaster({ address: paymaster, signer: sponsor }).getPaymasterData({
    ...op,
    chainId: devnet.chain.id,
    entryPointAddress: aa.entryPoint,
  } as never)
}

describe('sponsored gas through the default relayer bundler', () => {
  it('the paymaster’s deposit pays a sponsored op: the account loses only the value it sends', async () => {
    const account = await delegatedAccount(devnet, client, aa, '1')
    const recipient = freshAddress()
    const unsigned = await callOperation(client, aa, account.address, {
      to: recipient,
      value: parseEther('0.1'),
    })
    const sponsored = { ...unsigned, ...(await sponsorship(unsigned)) }
    const op = await signedOperation(client, account, sponsored)
    const [balance, deposit] = [
      await client.getBalance({ address: account.address }),
      await depositOf(paymaster),
    ]

    const receipt = await receiptOf(await bundler().sendUserOperation(op, aa.entryPoint))

    expect(receipt).toMatchObject({ success: true, paymaster })
    expect(await client.getBalance({ address: recipient })).toBe(parseEther('0.1'))
    expect(await client.getBalance({ address: account.address })).toBe(balance - parseEther('0.1'))
    expect(await depositOf(account.address)).toBe(0n)
    expect(await depositOf(paymaster)).toBe(deposit - receipt.actualGasCost)
  })

  it('the sponsor’s signature covers the op’s gas: raised after signing, the EntryPoint refuses it (AA34)', async () => {
    const account = await delegatedAccount(devnet, client, aa, '1')
    const unsigned = await callOperation(client, aa, account.address, { to: freshAddress(), value: 1n })
    const fields = await sponsorship(unsigned)
    // The account signs a costlier op than the sponsor agreed to pay for.
    const op = await signedOperation(client, account, { ...unsigned, ...fields, callGasLimit: 2_000_000n })

    const error = await bundler()
      .sendUserOperation(op, aa.entryPoint)
      .catch((caught: unknown) => caught)

    expect(error).toMatchObject({
      code: 'user_operation_rejected',
      details: { reason: 'AA34 signature error' },
    })
  })
})

import {
  type AccountAbstractionContracts,
  type AgentWallet,
  relayerAccount,
  relayerBundler,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type PublicClient, parseEther } from 'viem'
import { getUserOperationHash, type UserOperationReceipt } from 'viem/account-abstraction'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { freshAddress, publicClientOf, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'
import { callOperation, delegatedAccount, signedOperation } from '../helpers/sessionAccount.js'

let devnet: Devnet
let aw: AgentWallet
let client: PublicClient
let aa: AccountAbstractionContracts
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

beforeAll(async () => {
  client = publicClientOf(devnet)
  const contracts = devnet.addressBook.accountAbstraction
  if (!contracts) throw new Error('The devnet has no account-abstraction contracts')
  aa = contracts
  const relayer = await relayerAccount(aw.context, 'default')
  await devnet.faucet(relayer.address, parseEther('10'))
})

async function receiptOf(hash: `0x${string}`): Promise<UserOperationReceipt> {
  const bundler = relayerBundler(aw.context, { tenantId: 'default', chain: 'devnet' })
  return vi.waitFor(
    async () => {
      const receipt = await bundler.getUserOperationReceipt(hash)
      if (!receipt) throw new Error('not yet included')
      return receipt
    },
    { timeout: 20_000, interval: 20 },
  )
}

/** A fresh delegated account and its unsigned op paying `value` to a fresh recipient. */
async function payment(value: bigint) {
  const account = await delegatedAccount(devnet, client, aa)
  const recipient = freshAddress()
  const unsigned = await callOperation(client, aa, account.address, { to: recipient, value })
  return { account, recipient, unsigned }
}

describe('relayerBundler', () => {
  it('validates an op by eth_call, submits handleOps from the tenant relayer, and reads its receipt', async () => {
    const bundler = relayerBundler(aw.context, { tenantId: 'default', chain: 'devnet' })
    const { account, recipient, unsigned } = await payment(parseEther('0.5'))
    const gas = await bundler.estimateUserOperationGas(unsigned, aa.entryPoint)
    const op = await signedOperation(client, account, { ...unsigned, ...gas })

    const hash = await bundler.sendUserOperation(op, aa.entryPoint)

    expect(hash).toBe(
      getUserOperationHash({
        chainId: devnet.chain.id,
        entryPointAddress: aa.entryPoint,
        entryPointVersion: '0.8',
        userOperation: op,
      }),
    )
    const receipt = await receiptOf(hash)
    expect(receipt).toMatchObject({ success: true, sender: account.address, userOpHash: hash })
    expect(receipt.actualGasCost).toBeGreaterThan(0n)
    expect(await client.getBalance({ address: recipient })).toBe(parseEther('0.5'))
    const relayer = await relayerAccount(aw.context, 'default')
    expect(receipt.receipt.from.toLowerCase()).toBe(relayer.address.toLowerCase())
  })

  it('answers the same hash for the same op sent again, carried by one transaction', async () => {
    const bundler = relayerBundler(aw.context, { tenantId: 'default', chain: 'devnet' })
    const { account, recipient, unsigned } = await payment(parseEther('0.1'))
    const op = await signedOperation(client, account, unsigned)

    const [first, second] = await Promise.all([
      bundler.sendUserOperation(op, aa.entryPoint),
      bundler.sendUserOperation(op, aa.entryPoint),
    ])
    await receiptOf(first)
    const third = await bundler.sendUserOperation(op, aa.entryPoint)

    expect(new Set([first, second, third]).size).toBe(1)
    const carriers = (await aw.context.storage.query('transactions', {})).filter(
      (record) => record.meta?.userOpHash === first,
    )
    expect(carriers).toHaveLength(1)
    expect(await client.getBalance({ address: recipient })).toBe(parseEther('0.1'))
  })

  it('refuses an op the EntryPoint refuses, with its reason, and submits nothing', async () => {
    const bundler = relayerBundler(aw.context, { tenantId: 'default', chain: 'devnet' })
    const account = await delegatedAccount(devnet, client, aa)
    const other = await delegatedAccount(devnet, client, aa)
    const unsigned = await callOperation(client, aa, account.address, { to: freshAddress(), value: 1n })
    // Signed by another key: the account's validation fails (AA24).
    const forged = {
      ...unsigned,
      signature: (await signedOperation(client, other, { ...unsigned, sender: other.address })).signature,
    }
    const before = await aw.context.storage.count('transactions', {})

    const error = await bundler.sendUserOperation(forged, aa.entryPoint).catch((caught: unknown) => caught)

    expect(error).toMatchObject({ code: 'user_operation_rejected' })
    expect((error as { details: { reason: string } }).details.reason).toMatch(/^AA2/)
    expect(await aw.context.storage.count('transactions', {})).toBe(before)
  })
})

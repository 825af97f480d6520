import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { erc20Abi, parseEther, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  freshAddress,
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet

useDevnetAgentWallet((started) => ({ devnet, aw } = started))

describe('send', () => {
  it('confirms a native send and moves exactly the value', async () => {
    const client = publicClientOf(devnet)
    const wallet = await fundedWallet(aw, devnet, '5')
    const to = freshAddress()
    const before = await client.getBalance({ address: wallet.address })

    const { transaction } = await aw.send({ wallet: wallet.address, to, value: '0.123456789' })
    expect(transaction.status).toBe('submitted')
    const done = await aw.waitForTransaction({ transaction: transaction.id })
    expect(done.status).toBe('confirmed')

    const receipt = await client.getTransactionReceipt({ hash: done.hash! })
    expect(receipt.status).toBe('success')
    expect(await client.getBalance({ address: to })).toBe(parseEther('0.123456789'))
    const gasCost = receipt.gasUsed * receipt.effectiveGasPrice
    expect(await client.getBalance({ address: wallet.address })).toBe(
      before - parseEther('0.123456789') - gasCost,
    )

    const status = await aw.getTransaction({ transaction: done.hash! })
    expect(status.status).toBe('confirmed')
    expect((await aw.getTransaction({ transaction: done.hash!, chain: 'devnet' })).transaction.id).toBe(
      done.transaction.id,
    )
    await expect(aw.getTransaction({ transaction: done.hash!, chain: 'nowhere' })).rejects.toMatchObject({
      code: 'unsupported_chain',
    })
    expect(status.blockNumber).toBe(Number(receipt.blockNumber))
    expect(status.confirmations).toBeGreaterThanOrEqual(1)
  })

  it('sends an ERC-20 transfer in token units', async () => {
    const client = publicClientOf(devnet)
    const usdc = devnet.addressBook.tokens!.find((token) => token.decimals === 6)!
    const wallet = await fundedWallet(aw, devnet, '1')
    await devnet.mintToken(usdc.address, wallet.address, parseUnits('100', 6))
    const to = freshAddress()

    const { transaction } = await aw.send({ wallet: wallet.address, to, value: '12.5', token: usdc.address })
    expect((await aw.waitForTransaction({ transaction: transaction.id })).status).toBe('confirmed')
    const received = await client.readContract({
      address: usdc.address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [to],
    })
    expect(received).toBe(parseUnits('12.5', 6))
    expect(transaction.to).toBe(to)

    const balance = await aw.getBalance({ wallet: wallet.address })
    expect(balance.tokens.find((token) => token.address === usdc.address)?.balance).toBe('87.5')
  })

  it('reports balances and history', async () => {
    const wallet = await fundedWallet(aw, devnet, '2')
    const balance = await aw.getBalance({ wallet: wallet.address })
    expect(balance.eth).toBe('2')
    expect(balance.wei).toBe(parseEther('2').toString())
    const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.5' })
    await aw.waitForTransaction({ transaction: transaction.id })
    const history = await aw.listHistory({ wallet: wallet.address, limit: 10 })
    expect(history.count).toBe(1)
    expect(history.transactions[0]?.id).toBe(transaction.id)
    expect(history.transactions[0]?.amount).toBe('0.5')
  })

  it('estimates gas without sending', async () => {
    const wallet = await fundedWallet(aw, devnet, '1')
    const estimate = await aw.estimateGas({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
    // EDR's estimator answers 21001 for a plain transfer; any node may add a margin, none may go below.
    expect(BigInt(estimate.gasLimit)).toBeGreaterThanOrEqual(21000n)
    expect(BigInt(estimate.maxCostWei)).toBe(BigInt(estimate.gasLimit) * BigInt(estimate.maxFeePerGas))
    expect((await aw.listHistory({ wallet: wallet.address })).count).toBe(0)
  })

  it('refuses a send the wallet cannot pay, and records nothing', async () => {
    const wallet = await fundedWallet(aw, devnet, '0.01')
    await expect(aw.send({ wallet: wallet.address, to: freshAddress(), value: '1' })).rejects.toMatchObject({
      code: 'insufficient_funds',
    })
    expect((await aw.listHistory({ wallet: wallet.address })).count).toBe(0)
  })
})

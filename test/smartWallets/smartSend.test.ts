import { type AgentWallet, relayerAccount } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, erc20Abi, type PublicClient, parseEther, parseUnits } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { freshAddress, publicClientOf, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet
let client: PublicClient
let usdc: Address
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

beforeAll(async () => {
  client = publicClientOf(devnet)
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  // The operator funds the tenant's relayer: it pays the session account's delegation and every handleOps.
  const relayer = await relayerAccount(aw.context, 'default')
  await devnet.faucet(relayer.address, parseEther('10'))
})

describe('a smart wallet sends through its session key’s user operations', () => {
  it('is created as a smart account whose keys stay in the vault, and sends ETH, a token and a call', async () => {
    const { wallet } = await aw.createWallet({ agentName: 'smart', kind: 'smart' })
    expect(wallet.kind).toBe('smart')
    expect(wallet.smart?.sessionKey).toMatch(/^0x/)
    expect(wallet.smart?.owner).not.toBe(wallet.address)
    await devnet.faucet(wallet.address, parseEther('5'))
    await devnet.mintToken('USDC', wallet.address, parseUnits('100', 6))
    const recipient = freshAddress()

    const sent = await aw.send({ wallet: wallet.address, to: recipient, value: '0.25' })
    const done = await aw.waitForTransaction({ transaction: sent.transaction.id })

    expect(done.transaction.status).toBe('confirmed')
    expect(done.transaction.from).toBe(wallet.address)
    expect(await client.getBalance({ address: recipient })).toBe(parseEther('0.25'))
    // The wallet executed it: the session account is the op's sender, the relayer the tx's.
    const receipt = await client.getTransactionReceipt({ hash: done.transaction.hash! })
    expect(receipt.from.toLowerCase()).toBe(
      (await relayerAccount(aw.context, 'default')).address.toLowerCase(),
    )

    const token = await aw.send({
      wallet: wallet.address,
      to: recipient,
      value: '12.5',
      token: usdc,
    })
    expect((await aw.waitForTransaction({ transaction: token.transaction.id })).transaction.status).toBe(
      'confirmed',
    )
    expect(
      await client.readContract({
        address: usdc,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [recipient],
      }),
    ).toBe(parseUnits('12.5', 6))
  })
})

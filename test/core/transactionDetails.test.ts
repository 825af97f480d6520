import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  approvalOf,
  freshAddress,
  fundedWallet,
  useDevnetAgentWallet,
  withStatus,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet

useDevnetAgentWallet((started) => ({ devnet, aw } = started))

const argsOf = (args: { name: string; value: unknown; formatted?: string }[]) =>
  Object.fromEntries(args.map((arg) => [arg.name, arg.formatted ?? arg.value]))

describe('a transaction as an explorer shows it', () => {
  it('decodes an ERC-20 transfer: the call, its Transfer event, block and fee', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'payer')
    const usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!
    await devnet.mintToken(usdc.address, wallet.address, parseUnits('100', 6))
    const to = freshAddress()
    const sent = await aw.send({ wallet: wallet.address, to, value: '12.5', token: usdc.address })
    const mined = await aw.waitForTransaction({ transaction: sent.transaction.id })
    expect(mined.status).toBe('confirmed')

    const details = await aw.getTransactionDetails({ transaction: sent.transaction.hash! })
    expect(details.transaction).toMatchObject({ id: sent.transaction.id, status: 'confirmed' })
    expect(details.call).toMatchObject({
      to: usdc.address,
      contract: 'USDC (ERC-20)',
      value: '0',
      valueWei: '0',
    })
    expect(details.call.decoded).toMatchObject({
      function: 'transfer',
      signature: 'transfer(address,uint256)',
    })
    expect(argsOf(details.call.decoded!.args)).toEqual({ recipient: to, amount: '12.5 USDC' })
    expect(details.block?.number).toBe(mined.transaction.blockNumber)
    expect(Date.parse(details.block!.timestamp)).toBeGreaterThan(0)
    expect(details.receipt).toMatchObject({ status: 'success' })
    expect(BigInt(details.receipt!.gasUsed)).toBeGreaterThan(21_000n)
    expect(details.events).toHaveLength(1)
    expect(details.events[0]).toMatchObject({
      address: usdc.address,
      contract: 'USDC (ERC-20)',
      event: 'Transfer',
      signature: 'Transfer(address,address,uint256)',
    })
    expect(argsOf(details.events[0]!.args)).toEqual({ from: wallet.address, to, value: '12.5 USDC' })
  })

  it('decodes a swap through a router: every event of the receipt is named', async () => {
    const wallet = await fundedWallet(aw, devnet, '5', 'swapper')
    const swapped = withStatus(
      await aw.swap({ fromToken: 'ETH', toToken: 'DAI', amount: '0.5', wallet: wallet.address }),
      'confirmed',
    )
    const details = await aw.getTransactionDetails({ transaction: swapped.transaction.id })
    expect(details.call.contract).toMatch(/router$/)
    expect(details.call.value).toBe('0.5')
    expect(details.call.decoded?.function).toBeTypeOf('string')
    const names = details.events.map((event) => event.event)
    expect(names).not.toContain(null)
    expect(names).toEqual(expect.arrayContaining(['Deposit', 'Transfer', 'Swap']))
    expect(details.events.find((event) => event.event === 'Deposit')?.contract).toBe('WETH')
  })

  it('has no block, receipt or events before the transaction is signed; other agents see nothing', async () => {
    const wallet = await fundedWallet(aw, devnet, '3', 'careful')
    await aw.updatePolicyRules({ wallet: wallet.address, rules: [{ type: 'require_approval', above: '1' }] })
    const paused = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '2' })
    approvalOf(paused)
    const details = await aw.getTransactionDetails({ transaction: paused.transaction.id })
    expect(details).toMatchObject({ block: null, receipt: null, events: [] })
    expect(details.call).toMatchObject({ value: '2', data: '0x', decoded: null, contract: null })
    const stranger = aw.as({ tenantId: 'default', id: 'another-agent', role: 'agent' })
    await expect(
      stranger.getTransactionDetails({ transaction: paused.transaction.id }),
    ).rejects.toMatchObject({
      code: 'not_found',
    })
  })
})

import type { AgentWallet, Principal } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { erc20Abi, numberToHex, parseEther, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  approver,
  eventsOf,
  freshAddress,
  fundedWallet,
  publicClientOf,
  storedTransaction,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'
import { withoutAutomine } from '../helpers/mempool.js'

let devnet: Devnet
let aw: AgentWallet

// The tracker never replaces on its own here (what moves a tx is the caller's speed-up or cancel),
// and a fee may be raised to at most twice the first signature's.
useDevnetAgentWallet((started) => ({ devnet, aw } = started), {
  replaceStuckAfterMs: false,
  maxFeeBumpMultiplier: 2,
})

const agentA: Principal = { tenantId: 'default', id: 'speed-agent-a', role: 'agent' }
const agentB: Principal = { tenantId: 'default', id: 'speed-agent-b', role: 'agent' }

/** Whether the node's mempool holds the tx (a pending tx the devnet has not mined). */
async function isPending(hash: string): Promise<boolean> {
  const tx = await devnet.provider.request({ method: 'eth_getTransactionByHash', params: [hash] })
  return tx !== null && (tx as { blockNumber: string | null }).blockNumber === null
}

describe('speed-up', () => {
  it('signs the same call at the same nonce with higher fees; the new hash is the one mined', async () => {
    const client = publicClientOf(devnet)
    const wallet = await fundedWallet(aw, devnet, '5')
    const recipient = freshAddress()
    await withoutAutomine(devnet, async () => {
      const { transaction } = await aw.send({ wallet: wallet.address, to: recipient, value: '0.25' })
      const first = await storedTransaction(aw, transaction.id)
      const sped = await aw.speedUp({ transaction: transaction.id })
      expect(sped.replaces).toBe(first.hash)
      expect(sped.transaction).toMatchObject({ id: transaction.id, status: 'submitted', nonce: first.nonce })
      expect(sped.transaction.hash).not.toBe(first.hash)
      expect(sped.transaction.replacedHashes).toEqual([first.hash])
      const record = await storedTransaction(aw, transaction.id)
      expect(record.call).toEqual(first.call)
      expect(record.gas!.limit).toBe(first.gas!.limit)
      // Both fees at least 10% up: what a node asks to replace a pending tx.
      expect(BigInt(record.gas!.maxFeePerGas) * 100n >= BigInt(first.gas!.maxFeePerGas) * 110n).toBe(true)
      expect(
        BigInt(record.gas!.maxPriorityFeePerGas) * 100n >= BigInt(first.gas!.maxPriorityFeePerGas) * 110n,
      ).toBe(true)
      // The node took the replacement in place of the original.
      expect(await isPending(sped.transaction.hash!)).toBe(true)
      expect(await isPending(first.hash!)).toBe(false)
      await devnet.mine()
      const done = await aw.waitForTransaction({ transaction: transaction.id })
      expect(done).toMatchObject({ status: 'confirmed', hash: sped.transaction.hash })
      expect(await client.getBalance({ address: recipient })).toBe(parseEther('0.25'))
      expect(await client.getTransactionCount({ address: wallet.address })).toBe(first.nonce! + 1)
      const receipt = await client.getTransactionReceipt({ hash: sped.transaction.hash! })
      expect(receipt.status).toBe('success')
    })
  })

  it('within the cap by default; an explicit maxFeePerGas passes it, and a tx priced out is moved and mined', async () => {
    const wallet = await fundedWallet(aw, devnet, '5')
    const recipient = freshAddress()
    await withoutAutomine(devnet, async () => {
      const { transaction } = await aw.send({ wallet: wallet.address, to: recipient, value: '0.1' })
      const first = await storedTransaction(aw, transaction.id)
      const firstMax = BigInt(first.gas!.maxFeePerGas)
      // The chain now asks 10× the first max fee: a raise within 2× cannot be mined.
      await devnet.provider.request({
        method: 'hardhat_setNextBlockBaseFeePerGas',
        params: [numberToHex(firstMax * 10n)],
      })
      await devnet.mine()
      await expect(aw.speedUp({ transaction: transaction.id })).rejects.toMatchObject({
        code: 'validation_failed',
        details: { capMaxFeePerGas: (firstMax * 2n).toString() },
      })
      expect((await storedTransaction(aw, transaction.id)).hash).toBe(first.hash)
      // Below the 10% a node asks: refused before anything is signed.
      await expect(
        aw.speedUp({ transaction: transaction.id, maxFeePerGas: firstMax.toString() }),
      ).rejects.toMatchObject({ code: 'validation_failed' })
      const maxFeePerGas = (firstMax * 20n).toString()
      const sped = await aw.speedUp({ transaction: transaction.id, maxFeePerGas })
      expect((await storedTransaction(aw, transaction.id)).gas!.maxFeePerGas).toBe(maxFeePerGas)
      await devnet.mine()
      const done = await aw.waitForTransaction({ transaction: transaction.id })
      expect(done).toMatchObject({ status: 'confirmed', hash: sped.transaction.hash })
      expect(await publicClientOf(devnet).getBalance({ address: recipient })).toBe(parseEther('0.1'))
    })
  })

  it('is idempotent: a replay under the same key answers the first speed-up and signs nothing more', async () => {
    const wallet = await fundedWallet(aw, devnet, '5')
    await withoutAutomine(devnet, async () => {
      const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
      const once = await aw.speedUp({ transaction: transaction.id }, { idempotencyKey: 'speed-1' })
      const again = await aw.speedUp({ transaction: transaction.id }, { idempotencyKey: 'speed-1' })
      expect(again).toEqual(once)
      expect((await storedTransaction(aw, transaction.id)).replaced).toHaveLength(1)
    })
  })

  it('is judged by the policy as its intent again: a recipient now denied is policy_blocked, nothing signed', async () => {
    const wallet = await fundedWallet(aw, devnet, '5')
    const recipient = freshAddress()
    await withoutAutomine(devnet, async () => {
      const { transaction } = await aw.send({ wallet: wallet.address, to: recipient, value: '0.01' })
      const first = await storedTransaction(aw, transaction.id)
      await aw.updatePolicyRules({
        wallet: wallet.address,
        rules: [{ type: 'deny_recipients', addresses: [recipient] }],
      })
      await expect(aw.speedUp({ transaction: transaction.id })).rejects.toMatchObject({
        code: 'policy_blocked',
      })
      expect((await storedTransaction(aw, transaction.id)).hash).toBe(first.hash)
      // A cancel is a transfer of 0 to the wallet itself: not to the denied recipient.
      const cancelled = await aw.cancel({ transaction: transaction.id })
      expect(cancelled.transaction.cancelling).toBe(true)
    })
  })
})

describe('cancel', () => {
  it('signs a zero-value self-transfer at the nonce: mined, the intent fails as cancelled and its call never runs', async () => {
    const client = publicClientOf(devnet)
    const failed = eventsOf(aw, 'tx.failed')
    const wallet = await fundedWallet(aw, devnet, '5')
    const usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
    await devnet.mintToken(usdc, wallet.address, parseUnits('10', 6))
    const recipient = freshAddress()
    let id = ''
    await withoutAutomine(devnet, async () => {
      const { transaction } = await aw.send({
        wallet: wallet.address,
        to: recipient,
        value: '5',
        token: usdc,
      })
      id = transaction.id
      const first = await storedTransaction(aw, transaction.id)
      const cancelled = await aw.cancel({ transaction: transaction.id })
      expect(cancelled.replaces).toBe(first.hash)
      expect(cancelled.transaction).toMatchObject({
        status: 'submitted',
        cancelling: true,
        nonce: first.nonce,
      })
      const record = await storedTransaction(aw, transaction.id)
      expect(record.call).toEqual({ to: wallet.address, value: '0' })
      await devnet.mine()
      const done = await aw.waitForTransaction({ transaction: transaction.id })
      expect(done).toMatchObject({ status: 'failed', hash: cancelled.transaction.hash })
      expect(done.transaction.error?.code).toBe('cancelled')
      // The mined tx is the self-transfer; the token transfer never happened.
      const mined = await client.getTransaction({ hash: cancelled.transaction.hash! })
      expect(mined.value).toBe(0n)
      expect([mined.from, mined.to].map((address) => address?.toLowerCase())).toEqual([
        wallet.address.toLowerCase(),
        wallet.address.toLowerCase(),
      ])
      const balanceOf = (owner: `0x${string}`) =>
        client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
      expect(await balanceOf(recipient)).toBe(0n)
      expect(await balanceOf(wallet.address)).toBe(parseUnits('10', 6))
      expect(await client.getTransactionCount({ address: wallet.address })).toBe(first.nonce! + 1)
    })
    const announced = failed.find((event) => (event.data as { transactionId: string }).transactionId === id)
    expect(announced?.data).toMatchObject({ reason: 'cancelled', status: 'failed' })
  })

  it('sped up stays a cancel: the self-transfer is signed again with higher fees and still cancels', async () => {
    const client = publicClientOf(devnet)
    const wallet = await fundedWallet(aw, devnet, '5')
    const recipient = freshAddress()
    await withoutAutomine(devnet, async () => {
      const { transaction } = await aw.send({ wallet: wallet.address, to: recipient, value: '0.2' })
      const cancelled = await aw.cancel({ transaction: transaction.id })
      const cancel = await storedTransaction(aw, transaction.id)
      const sped = await aw.speedUp({ transaction: transaction.id })
      expect(sped.replaces).toBe(cancelled.transaction.hash)
      expect(sped.transaction.cancelling).toBe(true)
      const record = await storedTransaction(aw, transaction.id)
      expect(record.call).toEqual({ to: wallet.address, value: '0' })
      expect(BigInt(record.gas!.maxFeePerGas) > BigInt(cancel.gas!.maxFeePerGas)).toBe(true)
      await devnet.mine()
      const done = await aw.waitForTransaction({ transaction: transaction.id })
      expect(done).toMatchObject({ status: 'failed', hash: sped.transaction.hash })
      expect(done.transaction.error?.code).toBe('cancelled')
      expect(await client.getBalance({ address: recipient })).toBe(0n)
    })
  })

  it('of a mined tx is refused with transaction_not_pending; so is its speed-up', async () => {
    const wallet = await fundedWallet(aw, devnet, '5')
    const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
    await aw.waitForTransaction({ transaction: transaction.id })
    await expect(aw.cancel({ transaction: transaction.id })).rejects.toMatchObject({
      code: 'transaction_not_pending',
      details: { status: 'confirmed' },
    })
    await expect(aw.speedUp({ transaction: transaction.id })).rejects.toMatchObject({
      code: 'transaction_not_pending',
    })
  })
})

describe('who may', () => {
  it('an agent moves its own wallet’s tx; another agent’s is not_found, an approver is forbidden', async () => {
    const { wallet } = await aw.as(agentA).createWallet({ agentName: 'speed-a' })
    await devnet.faucet(wallet.address, parseEther('5'))
    await withoutAutomine(devnet, async () => {
      const { transaction } = await aw
        .as(agentA)
        .send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
      await expect(aw.as(agentB).speedUp({ transaction: transaction.id })).rejects.toMatchObject({
        code: 'not_found',
      })
      await expect(aw.as(agentB).cancel({ transaction: transaction.hash! })).rejects.toMatchObject({
        code: 'not_found',
      })
      await expect(aw.as(approver).cancel({ transaction: transaction.id })).rejects.toMatchObject({
        code: 'forbidden',
      })
      expect((await storedTransaction(aw, transaction.id)).replaced).toBeUndefined()
      const sped = await aw.as(agentA).speedUp({ transaction: transaction.id })
      expect(sped.replaces).toBe(transaction.hash)
    })
  })
})

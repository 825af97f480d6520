import type { AgentWallet } from '@agentwallet/core'
import { type Devnet, swapRouter02Abi, uniswapV2RouterAbi } from '@agentwallet/devnet'
import { decodeFunctionData, type Hex, numberToHex, parseEther, toFunctionSelector } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  freshAddress,
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
  withStatus,
} from '../helpers/devnetAgentWallet.js'
import { raiseBaseFee, withoutAutomine } from '../helpers/mempool.js'

let devnet: Devnet
let aw: AgentWallet

useDevnetAgentWallet((started) => ({ devnet, aw } = started), { replaceStuckAfterMs: 150 })

const stored = (id: string) => aw.context.storage.get('transactions', id)

describe('a submitted tx stuck below the chain’s fees', () => {
  it('is replaced at the same nonce with higher fees, and confirms once, under the new hash', async () => {
    const client = publicClientOf(devnet)
    const wallet = await fundedWallet(aw, devnet, '5')
    const recipient = freshAddress()
    await withoutAutomine(devnet, async () => {
      const { transaction } = await aw.send({ wallet: wallet.address, to: recipient, value: '0.25' })
      expect(transaction.status).toBe('submitted')
      const first = (await stored(transaction.id))!
      // The base fee jumps past what the tx may pay: it cannot be mined as signed.
      await raiseBaseFee(devnet, BigInt(first.gas!.maxFeePerGas) * 3n)
      await expect
        .poll(async () => (await stored(transaction.id))!.hash, { timeout: 10_000 })
        .not.toBe(first.hash)

      const replaced = (await stored(transaction.id))!
      expect(replaced).toMatchObject({ status: 'submitted', nonce: first.nonce })
      expect(replaced.replaced?.map((version) => version.hash)).toEqual([first.hash])
      expect(BigInt(replaced.gas!.maxFeePerGas)).toBeGreaterThanOrEqual(
        (BigInt(first.gas!.maxFeePerGas) * 1125n) / 1000n,
      )
      expect(BigInt(replaced.gas!.maxFeePerGas)).toBeGreaterThan(BigInt(first.gas!.maxFeePerGas) * 3n)
      expect(replaced.gas!.limit).toBe(first.gas!.limit)

      await devnet.mine()
      const done = await aw.waitForTransaction({ transaction: transaction.id })
      expect(done).toMatchObject({ status: 'confirmed', hash: replaced.hash })
      expect((await aw.getTransaction({ transaction: transaction.id })).transaction).toMatchObject({
        hash: replaced.hash,
        replacedHashes: [first.hash],
      })
      expect(await client.getBalance({ address: recipient })).toBe(parseEther('0.25'))
      // The old signature can never be mined now: its nonce is used.
      expect(await client.getTransactionCount({ address: wallet.address })).toBe(first.nonce! + 1)
    })
    // The replacement was announced like a broadcast, naming what it replaced.
    const events = await aw.context.storage.readEvents('default', { after: 0, limit: 10_000 })
    const replacement = events.find(
      (event) => event.type === 'tx.submitted' && (event.data as { replaces?: string }).replaces,
    )
    expect(replacement?.data).toMatchObject({ walletId: expect.any(String) })
  })

  it('is recorded under the older signature when that one is mined after all', async () => {
    const wallet = await fundedWallet(aw, devnet, '5')
    const recipient = freshAddress()
    await withoutAutomine(devnet, async () => {
      const { transaction } = await aw.send({ wallet: wallet.address, to: recipient, value: '0.2' })
      const first = (await stored(transaction.id))!
      await raiseBaseFee(devnet, BigInt(first.gas!.maxFeePerGas) * 3n)
      await expect
        .poll(async () => (await stored(transaction.id))!.hash, { timeout: 10_000 })
        .not.toBe(first.hash)
      const replaced = (await stored(transaction.id))!
      // The replacement vanishes from the mempool and the first signature comes back (another node
      // had it), and the fees fall again: the first signature is the one mined.
      await devnet.provider.request({ method: 'hardhat_dropTransaction', params: [replaced.hash] })
      await devnet.provider.request({
        method: 'hardhat_setNextBlockBaseFeePerGas',
        params: [numberToHex(1n)],
      })
      await devnet.provider.request({ method: 'eth_sendRawTransaction', params: [first.rawTx] })
      await devnet.mine()
      const done = await aw.waitForTransaction({ transaction: transaction.id })
      expect(done).toMatchObject({ status: 'confirmed', hash: first.hash })
      const record = (await stored(transaction.id))!
      expect(record.rawTx).toBe(first.rawTx)
      expect(record.replaced?.map((version) => version.hash)).toEqual([replaced.hash])
      expect(await publicClientOf(devnet).getBalance({ address: recipient })).toBe(parseEther('0.2'))
    })
  })

  it('gets a fresh deadline when a swap’s lapsed while it was stuck, and keeps its minimum', async () => {
    const wallet = await fundedWallet(aw, devnet, '5')
    const usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
    await withoutAutomine(devnet, async () => {
      const swapped = aw.swap({ fromToken: 'ETH', toToken: usdc, amount: '0.1', wallet: wallet.address })
      const [pending] = await pendingSwaps(wallet.address)
      const first = (await stored(pending!.id))!
      const firstCall = routerCall(first.call.data!)
      // Stuck below the base fee for longer than the swap's 20-minute deadline.
      await devnet.increaseTime(30 * 60)
      await raiseBaseFee(devnet, BigInt(first.gas!.maxFeePerGas) * 3n)
      await expect.poll(async () => (await stored(first.id))!.hash, { timeout: 10_000 }).not.toBe(first.hash)
      const replaced = (await stored(first.id))!
      const renewed = routerCall(replaced.call.data!)
      const latest = await publicClientOf(devnet).getBlock()
      expect(renewed.deadline > latest.timestamp).toBe(true)
      expect(firstCall.deadline < latest.timestamp).toBe(true)
      expect(renewed.amountOutMin).toBe(firstCall.amountOutMin)
      await devnet.mine()
      const result = withStatus(await swapped, 'confirmed')
      expect(BigInt(result.amountOutRaw) >= firstCall.amountOutMin).toBe(true)
    })
  })

  it('is left alone while it is priced at the chain’s fees (only slow), and never raised past the cap', async () => {
    const capped = await agentWalletOn(devnet, {
      replaceStuckAfterMs: 100,
      maxFeeBumpMultiplier: 2,
      trackerIntervalMs: 20,
    })
    try {
      const wallet = await fundedWallet(capped, devnet, '5')
      await withoutAutomine(devnet, async () => {
        const { transaction } = await capped.send({
          wallet: wallet.address,
          to: freshAddress(),
          value: '0.1',
        })
        const first = (await capped.context.storage.get('transactions', transaction.id))!
        // Unmined but payable: several tracker passes, no replacement.
        await new Promise((resolve) => setTimeout(resolve, 500))
        expect((await capped.context.storage.get('transactions', transaction.id))!.hash).toBe(first.hash)
        // The market moves to 10× its max fee: a raise would pass 2× the first fee, so none is made.
        await raiseBaseFee(devnet, BigInt(first.gas!.maxFeePerGas) * 10n)
        await new Promise((resolve) => setTimeout(resolve, 500))
        const after = (await capped.context.storage.get('transactions', transaction.id))!
        expect(after).toMatchObject({ status: 'submitted', hash: first.hash })
        expect(after.replaced).toBeUndefined()
      })
      // Back at normal fees the original signature mines as it was.
      const done = await capped.waitForTransaction({
        transaction: transaction(await capped.listHistory({ wallet: wallet.address })),
      })
      expect(done.status).toBe('confirmed')
    } finally {
      await capped.close()
    }
  })
})

function transaction(history: { transactions: { id: string }[] }): string {
  return history.transactions[0]!.id
}

/** The swaps of a wallet waiting in the mempool (polled: `swap` resolves only once mined). */
async function pendingSwaps(address: string) {
  let found: { id: string }[] = []
  await expect
    .poll(
      async () => {
        found = (await aw.listHistory({ wallet: address })).transactions.filter(
          (tx) => tx.kind === 'swap' && tx.status === 'submitted',
        )
        return found.length
      },
      { timeout: 10_000 },
    )
    .toBe(1)
  return found
}

/** The deadline and minimum out of a swap on either router kind of the devnet. */
function routerCall(data: Hex): { deadline: bigint; amountOutMin: bigint } {
  if (data.startsWith(toFunctionSelector('multicall(uint256,bytes[])'))) {
    const { args } = decodeFunctionData({ abi: swapRouter02Abi, data })
    const [deadline, [inner]] = args as unknown as [bigint, Hex[]]
    const swap = decodeFunctionData({ abi: swapRouter02Abi, data: inner! })
    return { deadline, amountOutMin: (swap.args[0] as { amountOutMinimum: bigint }).amountOutMinimum }
  }
  // Router02 swapExactETHForTokens(amountOutMin, path, to, deadline)
  const { functionName, args } = decodeFunctionData({ abi: uniswapV2RouterAbi, data })
  if (functionName !== 'swapExactETHForTokens') throw new Error(`unexpected ${functionName}`)
  return { deadline: args[3], amountOutMin: args[0] }
}

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AgentWallet, SwapOperation } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { sqliteStorage } from '@agentwallet/sqlite'
import { type Address, erc20Abi, parseEther, parseUnits } from 'viem'
import { afterAll, describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  approver,
  eventsOf,
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
  withStatus,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

const token = (symbol: string) => devnet.addressBook.tokens.find((t) => t.symbol === symbol)!.address
const balanceOf = (asset: Address, owner: Address) =>
  publicClientOf(devnet).readContract({
    address: asset,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [owner],
  })

/** Polls the tracked swap until `done` holds for it. */
async function swapWhere(
  wallet: AgentWallet,
  id: string,
  done: (swap: SwapOperation) => boolean,
): Promise<SwapOperation> {
  let swap: SwapOperation | undefined
  await expect
    .poll(
      async () => {
        swap = (await wallet.getSwap({ swapId: id })).swap
        return done(swap)
      },
      { timeout: 20_000 },
    )
    .toBe(true)
  return swap!
}

/** A wallet holding 500 USDC whose every USDC movement waits for a human. */
async function usdcWalletUnderApproval(wallet: AgentWallet) {
  const created = await fundedWallet(wallet, devnet, '1')
  await devnet.mintToken(token('USDC'), created.address, parseUnits('500', 6))
  await wallet.updatePolicyRules({
    wallet: created.address,
    rules: [{ type: 'require_approval', asset: token('USDC'), always: true }],
  })
  return created
}

describe('a swap that pauses for approval', () => {
  it('follows an approved allowance with a fresh quote and the swap, each step under its own approval', async () => {
    const wallet = await usdcWalletUnderApproval(aw)
    const started = withStatus(
      await aw.swap({ fromToken: 'USDC', toToken: 'DAI', amount: '100', wallet: wallet.address }),
      'pending_approval',
    )
    expect(started).toMatchObject({ status: 'pending_approval', swapId: expect.stringMatching(/^swp_/) })
    expect(started.allowanceTransaction?.status).toBe('pending_approval')
    expect(started.transaction).toBeNull()
    const { swap: first } = await aw.getSwap({ swapId: started.swapId })
    expect(first).toMatchObject({
      status: 'awaiting_approval',
      step: 'allowance',
      approvalId: started.approval.id,
      wallet: wallet.address,
      amountIn: '100',
      venue: null,
      amountOutRaw: null,
      transactions: { allowance: started.allowanceTransaction!.id },
    })

    await aw.as(approver).approve({ approvalId: first.approvalId! })
    // The allowance confirmed; the swap itself moves USDC too, so it waits for its own approval.
    const second = await swapWhere(
      aw,
      first.id,
      (swap) => swap.step === 'swap' && swap.status === 'awaiting_approval',
    )
    expect(second.approvalId).not.toBe(first.approvalId)
    expect(second.venue).not.toBeNull()
    expect(await balanceOf(token('USDC'), wallet.address)).toBe(parseUnits('500', 6))

    await aw.as(approver).approve({ approvalId: second.approvalId! })
    const done = await swapWhere(
      aw,
      first.id,
      (swap) => swap.status !== 'awaiting_approval' && swap.status !== 'swapping',
    )
    expect(done).toMatchObject({ status: 'confirmed', step: 'swap', approvalId: null, error: null })
    expect(BigInt(done.amountOutRaw!) >= BigInt(done.minAmountOutRaw!)).toBe(true)
    expect(await balanceOf(token('DAI'), wallet.address)).toBe(BigInt(done.amountOutRaw!))
    expect(await balanceOf(token('USDC'), wallet.address)).toBe(parseUnits('400', 6))
    const history = await aw.listHistory({ wallet: wallet.address })
    expect(history.transactions.map((tx) => [tx.kind, tx.status]).sort()).toEqual([
      ['contract_call', 'confirmed'],
      ['swap', 'confirmed'],
    ])
    // The approved allowance was exactly the amount, and the swap spent it at that spender's venue:
    // nothing is left standing to any router.
    const routers = [
      ...devnet.addressBook.uniswapV2.map((venue) => venue.router),
      ...devnet.addressBook.uniswapV3.map((venue) => venue.router),
    ]
    for (const router of routers)
      expect(
        await publicClientOf(devnet).readContract({
          address: token('USDC'),
          abi: erc20Abi,
          functionName: 'allowance',
          args: [wallet.address, router],
        }),
        router,
      ).toBe(0n)
  })

  it('fails, swapping nothing, when the approver rejects the allowance', async () => {
    const wallet = await usdcWalletUnderApproval(aw)
    const started = withStatus(
      await aw.swap({ fromToken: 'USDC', toToken: 'DAI', amount: '50', wallet: wallet.address }),
      'pending_approval',
    )
    const failures = eventsOf(aw, 'operation.failed')
    await aw.as(approver).reject({ approvalId: started.approval.id, reason: 'not this venue' })
    const done = await swapWhere(aw, started.swapId, (swap) => swap.status === 'failed')
    expect(done.step).toBe('allowance')
    expect(done.error?.message).toMatch(/rejected/)
    await expect
      .poll(() => failures.map((event) => event.data))
      .toEqual([
        {
          operation: 'swap',
          operationId: started.swapId,
          walletId: expect.any(String),
          step: 'allowance',
          error: done.error,
        },
      ])
    expect(done.transactions.swap).toBeUndefined()
    expect(await balanceOf(token('DAI'), wallet.address)).toBe(0n)
    expect(
      (await aw.listHistory({ wallet: wallet.address })).transactions.filter((tx) => tx.kind === 'swap'),
    ).toHaveLength(0)
  })

  it('records what a swap paused at the swap step received once approved', async () => {
    const wallet = await fundedWallet(aw, devnet, '5')
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'require_approval', above: '0.5' }],
    })
    const started = withStatus(
      await aw.swap({ fromToken: 'ETH', toToken: 'USDC', amount: '1', wallet: wallet.address }),
      'pending_approval',
    )
    expect(started.status).toBe('pending_approval')
    expect((await aw.getSwap({ swapId: started.swapId })).swap).toMatchObject({
      status: 'awaiting_approval',
      step: 'swap',
      venue: started.venue,
      transactions: { swap: started.transaction!.id },
    })
    await aw.as(approver).approve({ approvalId: started.approval.id })
    const done = await swapWhere(aw, started.swapId, (swap) => swap.status === 'confirmed')
    expect(await balanceOf(token('USDC'), wallet.address)).toBe(BigInt(done.amountOutRaw!))
  })

  it('fails with insufficient_funds, swapping nothing, when the ether left before the approval', async () => {
    const wallet = await fundedWallet(aw, devnet, '1.2')
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'require_approval', above: '0.5' }],
    })
    const started = withStatus(
      await aw.swap({ fromToken: 'ETH', toToken: 'USDC', amount: '1', wallet: wallet.address }),
      'pending_approval',
    )
    expect(started.status).toBe('pending_approval')
    const spent = await aw.send({ wallet: wallet.address, to: devnet.accounts[3]!.address, value: '0.5' })
    expect((await aw.waitForTransaction({ transaction: spent.transaction.id })).status).toBe('confirmed')

    await expect(aw.as(approver).approve({ approvalId: started.approval.id })).rejects.toMatchObject({
      code: 'insufficient_funds',
    })
    const done = await swapWhere(aw, started.swapId, (swap) => swap.status !== 'awaiting_approval')
    expect(done).toMatchObject({ status: 'failed', step: 'swap', error: { code: 'insufficient_funds' } })
    expect(await aw.getTransaction({ transaction: started.transaction!.id })).toMatchObject({
      status: 'failed',
      hash: null,
    })
    expect(await balanceOf(token('USDC'), wallet.address)).toBe(0n)
  })

  it('is visible to its own agent only', async () => {
    const agent = aw.as({ tenantId: 'default', id: 'swapper', role: 'agent' })
    const other = aw.as({ tenantId: 'default', id: 'bystander', role: 'agent' })
    const { wallet } = await agent.createWallet({ agentName: 'swapper' })
    await devnet.faucet(wallet.address, parseEther('2'))
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'require_approval', always: true }],
    })
    const started = withStatus(
      await agent.swap({ fromToken: 'ETH', toToken: 'USDC', amount: '0.1' }),
      'pending_approval',
    )
    expect((await agent.getSwap({ swapId: started.swapId })).swap.status).toBe('awaiting_approval')
    await expect(other.getSwap({ swapId: started.swapId })).rejects.toMatchObject({ code: 'not_found' })
    await expect(agent.getSwap({ swapId: 'swp_nope' })).rejects.toMatchObject({ code: 'not_found' })
  })
})

describe('a tracked swap across a restart', () => {
  const dirs: string[] = []
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })
  const masterKey = '6b'.repeat(32)

  it('is picked up by the next AgentWallet on the same storage, which runs its remaining steps', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aw-swap-'))
    dirs.push(dir)
    const filename = join(dir, 'agentwallet.db')
    const open = async () => {
      const storage = sqliteStorage({ filename })
      return { storage, wallet: await agentWalletOn(devnet, { storage, masterKey }) }
    }

    const a = await open()
    const wallet = await usdcWalletUnderApproval(a.wallet)
    const started = withStatus(
      await a.wallet.swap({
        fromToken: 'USDC',
        toToken: 'DAI',
        amount: '100',
        wallet: wallet.address,
      }),
      'pending_approval',
    )
    expect(started.status).toBe('pending_approval')
    await a.wallet.close()
    await a.storage.close()

    // Nothing follows the swap now; B's start resumes it and its approvals drive it to the end.
    const b = await open()
    try {
      await b.wallet.as(approver).approve({ approvalId: started.approval.id })
      const paused = await swapWhere(b.wallet, started.swapId, (swap) => swap.step === 'swap')
      expect(paused.status).toBe('awaiting_approval')
      await b.wallet.as(approver).approve({ approvalId: paused.approvalId! })
      const done = await swapWhere(b.wallet, started.swapId, (swap) => swap.status === 'confirmed')
      expect(await balanceOf(token('DAI'), wallet.address)).toBe(BigInt(done.amountOutRaw!))
    } finally {
      await b.wallet.close()
      await b.storage.close()
    }
  })
})

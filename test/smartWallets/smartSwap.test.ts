import { type AgentWallet, type DomainEvent, relayerAccount } from '@agentwallet/core'
import { type Devnet, lidoAbi } from '@agentwallet/devnet'
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type PublicClient,
  parseAbiItem,
  parseEther,
  parseUnits,
} from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  approver,
  publicClientOf,
  storedTransaction,
  useDevnetAgentWallet,
  withStatus,
} from '../helpers/devnetAgentWallet.js'

// Swaps and staking from a smart wallet: the approve and the swap in ONE user operation (one intent,
// one record, its effects judged as one), with the answers, idempotency and events of an EOA's.

const userOperationEvent = parseAbiItem(
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
)

let devnet: Devnet
let aw: AgentWallet
let client: PublicClient
let dai: Address
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

beforeAll(async () => {
  client = publicClientOf(devnet)
  dai = devnet.addressBook.tokens.find((token) => token.symbol === 'DAI')!.address
  await devnet.faucet((await relayerAccount(aw.context, 'default')).address, parseEther('20'))
})

async function smartWallet(name: string, { eth = '2', daiAmount = '0' } = {}) {
  const { wallet } = await aw.createWallet({ agentName: name, kind: 'smart' })
  await devnet.faucet(wallet.address, parseEther(eth))
  if (daiAmount !== '0') await devnet.mintToken('DAI', wallet.address, parseUnits(daiAmount, 18))
  return wallet
}

const daiOf = (owner: Address) =>
  client.readContract({ address: dai, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

/** The user operations the EntryPoint ran for `sender`, from its logs. */
async function operationsOf(sender: Address) {
  const logs = await client.getLogs({
    address: devnet.addressBook.accountAbstraction!.entryPoint,
    event: userOperationEvent,
    args: { sender },
    fromBlock: 0n,
  })
  return logs.map((log) => log.args)
}

describe('a smart wallet swaps: approve and swap in one user operation', () => {
  it('sells a token: one op, one record carrying both calls, its effects the batch’s, tx.* events', async () => {
    const wallet = await smartWallet('smart-swapper', { daiAmount: '500' })
    const session = wallet.smart!.sessionKey as Address
    const events: DomainEvent[] = []
    aw.bus.on('*', (event) => {
      if (event.type.startsWith('tx.')) events.push(event)
    })

    const swapped = withStatus(
      await aw.swap({ fromToken: 'DAI', toToken: 'ETH', amount: '300', wallet: wallet.address }),
      'confirmed',
    )

    // Read back from the chain: 300 DAI gone, and in the op's block the wallet's ETH rose by what the
    // answer names (its gas came from the session's deposit, not from that balance).
    expect(await daiOf(wallet.address)).toBe(parseUnits('200', 18))
    const received = BigInt(swapped.amountOutRaw)
    expect(received).toBeGreaterThanOrEqual(BigInt(swapped.minAmountOutRaw))
    expect(received).toBeGreaterThan(0n)
    const { blockNumber } = await client.getTransactionReceipt({ hash: swapped.hash })
    const [before, after] = await Promise.all([
      client.getBalance({ address: wallet.address, blockNumber: blockNumber - 1n }),
      client.getBalance({ address: wallet.address, blockNumber }),
    ])
    expect(after - before).toBe(received)
    // One intent, no separate approve: the record carries both calls, in order, under one op.
    expect(swapped.allowanceTransaction).toBeNull()
    const record = await storedTransaction(aw, swapped.transaction.id)
    // No allowance to the router is left standing.
    expect(
      await client.readContract({
        address: dai,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [wallet.address, swappedSpender(record)],
      }),
    ).toBe(0n)
    expect(record).toMatchObject({ kind: 'swap', status: 'confirmed', carriedBy: 'user_operation' })
    expect(record.calls?.map((call) => call.to.toLowerCase())).toEqual([
      dai.toLowerCase(),
      record.call.to.toLowerCase(),
    ])
    expect(record.calls?.[1]).toEqual(record.call)
    const history = await aw.listHistory({ wallet: wallet.address })
    expect(history.transactions.map((tx) => tx.kind)).toEqual(['swap'])
    const ops = await operationsOf(session)
    expect(ops).toHaveLength(1)
    expect(ops[0]?.userOpHash).toBe(record.userOperation?.hash)
    expect(ops[0]?.success).toBe(true)
    expect(swapped.hash).toBe(record.hash)

    // The batch was judged as one: the DAI out of the swap (the approve alone moves nothing).
    expect(record.effects?.status).toBe('known')
    const effects = record.effects?.status === 'known' ? record.effects.effects : []
    expect(effects).toContainEqual(
      expect.objectContaining({
        kind: 'out',
        asset: expect.objectContaining({ address: dai }),
        amount: parseUnits('300', 18).toString(),
      }),
    )
    expect(effects).toContainEqual(
      expect.objectContaining({ kind: 'in', asset: expect.objectContaining({ address: 'native' }) }),
    )

    const mine = events.filter(
      (event) => (event.data as { transactionId?: string }).transactionId === record.id,
    )
    expect(mine.map((event) => event.type)).toEqual(['tx.submitted', 'tx.confirmed'])
  })

  it('an idempotent replay answers the first swap and sends nothing twice', async () => {
    const wallet = await smartWallet('smart-replayed', { daiAmount: '100' })
    const request = { fromToken: 'DAI', toToken: 'ETH', amount: '40', wallet: wallet.address }
    const first = withStatus(await aw.swap(request, { idempotencyKey: 'smart-swap-1' }), 'confirmed')
    const again = withStatus(await aw.swap(request, { idempotencyKey: 'smart-swap-1' }), 'confirmed')

    expect(again.transaction.id).toBe(first.transaction.id)
    expect(again.hash).toBe(first.hash)
    expect(await daiOf(wallet.address)).toBe(parseUnits('60', 18))
    expect((await aw.listHistory({ wallet: wallet.address })).count).toBe(1)
    expect(await operationsOf(wallet.smart!.sessionKey as Address)).toHaveLength(1)
  })

  it('buys with ETH: one call, one op', async () => {
    const wallet = await smartWallet('smart-buyer', { eth: '3' })
    const swapped = withStatus(
      await aw.swap({ fromToken: 'ETH', toToken: 'DAI', amount: '0.5', wallet: wallet.address }),
      'confirmed',
    )
    expect(await daiOf(wallet.address)).toBe(BigInt(swapped.amountOutRaw))
    expect(BigInt(swapped.amountOutRaw)).toBeGreaterThan(0n)
    const record = await storedTransaction(aw, swapped.transaction.id)
    expect(record.calls).toBeUndefined()
    expect(await operationsOf(wallet.smart!.sessionKey as Address)).toHaveLength(1)
  })

  it('a rule the batch’s combined outflow breaks denies it, though the approve alone would pass', async () => {
    const wallet = await smartWallet('smart-capped', { daiAmount: '500' })
    await aw.updatePolicyRules({
      wallet: wallet.address,
      // A USD cap stays off chain (enforcers read no price feed): the engine alone judges it.
      rules: [{ id: 'usd-cap', type: 'max_per_tx', asset: 'usd', max: '100' }],
    })
    await expect(
      aw.swap({ fromToken: 'DAI', toToken: 'ETH', amount: '300', wallet: wallet.address }),
    ).rejects.toMatchObject({ code: 'policy_blocked', details: { ruleId: 'usd-cap' } })
    expect(await daiOf(wallet.address)).toBe(parseUnits('500', 18))
    const [blocked] = (await aw.listHistory({ wallet: wallet.address })).transactions
    expect(blocked).toMatchObject({ kind: 'swap', status: 'blocked' })
    // It was the batch that was judged: approve and swap, the swap's DAI out counted.
    const record = await storedTransaction(aw, blocked!.id)
    expect(record.calls).toHaveLength(2)
    expect(record.effects?.status).toBe('known')
    expect(record.policy.details).toMatchObject({
      counted: [{ kind: 'out', asset: dai, amountRaw: parseUnits('300', 18).toString() }],
    })

    // The approve alone: a grant to a venue, which the cap does not count (judged when spent), passes.
    const router = swappedSpender(record)
    const approveAlone = await aw.send({
      wallet: wallet.address,
      to: dai,
      value: '0',
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [router, parseUnits('300', 18)],
      }),
    })
    const approved = await aw.waitForTransaction({ transaction: approveAlone.transaction.id })
    expect(approved.transaction.status).toBe('confirmed')
  })
})

function swappedSpender(record: { meta?: Record<string, unknown> | undefined }): Address {
  return record.meta?.spender as Address
}

describe('a smart wallet’s swap under approval', () => {
  it('pauses once for the whole batch; approved, its one op runs and the tracked swap confirms', async () => {
    const wallet = await smartWallet('smart-approved', { daiAmount: '200' })
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'require_approval', asset: dai, always: true }],
    })
    const started = withStatus(
      await aw.swap({ fromToken: 'DAI', toToken: 'ETH', amount: '120', wallet: wallet.address }),
      'pending_approval',
    )
    // Not an approve waiting alone: the batch (approve and swap) is the one intent a human approves.
    expect(started.allowanceTransaction).toBeNull()
    expect(started.transaction?.kind).toBe('swap')
    const { swap: paused } = await aw.getSwap({ swapId: started.swapId })
    expect(paused).toMatchObject({ status: 'awaiting_approval', step: 'swap' })

    await aw.as(approver).approve({ approvalId: started.approval.id })
    let done = paused
    await expect
      .poll(
        async () => {
          done = (await aw.getSwap({ swapId: started.swapId })).swap
          return done.status
        },
        { timeout: 20_000 },
      )
      .toBe('confirmed')
    expect(await daiOf(wallet.address)).toBe(parseUnits('80', 18))
    expect(BigInt(done.amountOutRaw!)).toBeGreaterThanOrEqual(BigInt(done.minAmountOutRaw!))
    expect(await operationsOf(wallet.smart!.sessionKey as Address)).toHaveLength(1)
    const history = await aw.listHistory({ wallet: wallet.address })
    expect(history.transactions.map((tx) => [tx.kind, tx.status])).toEqual([['swap', 'confirmed']])
  })
})

describe('a smart wallet and its on-chain caps', () => {
  it('a token its rules meter on chain (transfer only) is refused for a swap before anything is saved', async () => {
    const wallet = await smartWallet('smart-metered', { daiAmount: '500' })
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ id: 'dai-budget', type: 'spend_limit', asset: 'DAI', max: '1000', window: '24h' }],
    })
    await expect(
      aw.swap({ fromToken: 'DAI', toToken: 'ETH', amount: '50', wallet: wallet.address }),
    ).rejects.toMatchObject({
      code: 'wallet_kind_unsupported',
      details: { wallet: wallet.address, flow: 'swap', token: dai },
    })
    expect((await aw.listHistory({ wallet: wallet.address })).count).toBe(0)
    expect(await daiOf(wallet.address)).toBe(parseUnits('500', 18))
  })
})

describe('a smart wallet stakes', () => {
  it('stakes ETH with Lido in one op and receives stETH', async () => {
    const wallet = await smartWallet('smart-staker', { eth: '4' })
    const lido = devnet.addressBook.staking!.lido
    // Under the 1 ETH a call a rule-less wallet's session grant holds on chain (nativeFromDefaults).
    const staked = withStatus(
      await aw.stake({ protocol: 'lido', amount: '0.9', wallet: wallet.address }),
      'confirmed',
    )
    expect(staked.transaction).toMatchObject({ kind: 'stake', status: 'confirmed', to: lido })
    const stEth = await client.readContract({
      address: lido,
      abi: lidoAbi,
      functionName: 'balanceOf',
      args: [wallet.address],
    })
    expect(stEth).toBeGreaterThan(0n)
    expect(BigInt(staked.received.amountRaw)).toBe(stEth)
    expect(await operationsOf(wallet.smart!.sessionKey as Address)).toHaveLength(1)
  })
})

import {
  type AgentWallet,
  isMinedUserOperation,
  type MinedUserOperation,
  relayerAccount,
  type TransactionRecord,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, formatEther, type Hex, parseEther, parseEventLogs, parseUnits } from 'viem'
import { entryPoint08Abi, entryPoint08Address } from 'viem/account-abstraction'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  eventsOf,
  freshAddress,
  publicClientOf,
  storedTransaction,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet

// The tracker runs only when a test calls `reconcile()`, so each step is seen in order. Depth 5: a
// reorg of 3 blocks stays inside it.
useDevnetAgentWallet((started) => ({ devnet, aw } = started), { track: false, finalityDepth: 5 })

beforeAll(async () => {
  await devnet.faucet((await relayerAccount(aw.context, 'default')).address, parseEther('10'))
})

/** Tracker passes until the intent is mined or failed (its op, then its carrier, then its receipt). */
async function settle(id: string): Promise<TransactionRecord> {
  for (let pass = 0; pass < 50; pass++) {
    await aw.reconcile()
    const record = await storedTransaction(aw, id)
    if (record.status !== 'queued' && record.status !== 'submitted') return record
  }
  return storedTransaction(aw, id)
}

/** A smart wallet with ETH, deployed and its session's deposit funded by a first send. */
async function smartWallet(name: string) {
  const { wallet } = await aw.createWallet({ agentName: name, kind: 'smart' })
  await devnet.faucet(wallet.address, parseEther('3'))
  const first = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
  expect((await settle(first.transaction.id)).status).toBe('confirmed')
  return wallet
}

/** The EntryPoint's `UserOperationEvent`s for `hash` on the canonical chain. */
async function operationEvents(hash: Hex) {
  const logs = await publicClientOf(devnet).getLogs({ address: entryPoint08Address, fromBlock: 0n })
  return parseEventLogs({ abi: entryPoint08Abi, logs, eventName: 'UserOperationEvent' }).filter(
    (event) => event.args.userOpHash === hash,
  )
}

function minedOperation(record: TransactionRecord): MinedUserOperation {
  if (!isMinedUserOperation(record)) throw new Error(`not an included op: ${record.status}`)
  return record
}

describe('a smart wallet’s confirmed send reads as the chain tells it', () => {
  it('keeps the block, the op’s nonce and gas from its UserOperationEvent, and what it moved from its logs', async () => {
    const wallet = await smartWallet('smart-truth')
    const usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
    await devnet.mintToken('USDC', wallet.address, parseUnits('50', 6))
    const to = freshAddress()
    const sent = await aw.send({ wallet: wallet.address, to, value: '0.2' })
    const token = await aw.send({ wallet: wallet.address, to, value: '7.5', token: usdc })
    const record = minedOperation(await settle(sent.transaction.id))
    const tokenRecord = minedOperation(await settle(token.transaction.id))

    const client = publicClientOf(devnet)
    const receipt = await client.getTransactionReceipt({ hash: record.hash })
    const [event] = await operationEvents(record.userOperation.hash)
    expect(event).toBeDefined()
    expect(record.blockNumber).toBe(Number(receipt.blockNumber))
    expect(record.blockHash).toBe(receipt.blockHash)
    expect(record.finality).toBe('pending')
    expect(record.gasUsed).toBe(event!.args.actualGasUsed.toString())
    expect(record.gasCost).toBe(event!.args.actualGasCost.toString())
    expect(BigInt(record.userOperation.op.nonce!)).toBe(event!.args.nonce)
    // What the op moved, from its own logs and the wallet's call: the ETH out, nothing else.
    expect(record.receiptEffects).toMatchObject({
      status: 'known',
      source: 'receipt',
      effects: [{ kind: 'out', asset: { address: 'native' }, amount: parseEther('0.2').toString() }],
    })
    expect(record.receiptEffects?.status === 'known' && record.receiptEffects.effects).toHaveLength(1)
    expect(tokenRecord.receiptEffects).toMatchObject({
      status: 'known',
      effects: [
        {
          kind: 'out',
          asset: { address: usdc, symbol: 'USDC' },
          amount: parseUnits('7.5', 6).toString(),
          counterparty: to,
        },
      ],
    })

    // Over the API, as an EOA's: its block, confirmations, finality, and the op with its own gas.
    const { transaction, confirmations } = await aw.getTransaction({ transaction: record.id })
    expect(transaction).toMatchObject({
      status: 'confirmed',
      hash: record.hash,
      blockNumber: record.blockNumber,
      finality: 'pending',
      userOperation: {
        hash: record.userOperation.hash,
        sender: wallet.smart!.sessionKey,
        nonce: event!.args.nonce.toString(),
        gasUsed: event!.args.actualGasUsed.toString(),
        gasCost: event!.args.actualGasCost.toString(),
      },
    })
    expect(confirmations).toBeGreaterThanOrEqual(1)
    const details = await aw.getTransactionDetails({ transaction: record.id })
    expect(details.block?.number).toBe(record.blockNumber)
    expect(details.receipt).toMatchObject({
      status: 'success',
      gasUsed: event!.args.actualGasUsed.toString(),
      fee: formatEther(event!.args.actualGasCost),
    })
    const history = await aw.listHistory({ wallet: wallet.address })
    expect(history.transactions.find((view) => view.id === record.id)).toMatchObject({
      blockNumber: record.blockNumber,
      userOperation: { gasCost: record.gasCost },
    })

    // Deep enough, it is final.
    for (let block = 0; block < 5; block++) await devnet.provider.request({ method: 'evm_mine', params: [] })
    await aw.reconcile()
    expect(await storedTransaction(aw, record.id)).toMatchObject({ finality: 'finalized' })
  })
})

describe('a smart wallet’s confirmed send whose carrier’s block leaves the chain', () => {
  it('goes back to submitted with tx.reorged, is included again and confirmed: its op executed once', async () => {
    const wallet = await smartWallet('smart-reorg')
    const to = freshAddress()
    const reorged = eventsOf(aw, 'tx.reorged')
    const confirmed = eventsOf(aw, 'tx.confirmed')
    const client = publicClientOf(devnet)

    const snapshot = await devnet.provider.request({ method: 'evm_snapshot', params: [] })
    const sent = await aw.send({ wallet: wallet.address, to, value: '0.3' })
    const first = minedOperation(await settle(sent.transaction.id))
    expect(await client.getBalance({ address: to })).toBe(parseEther('0.3'))
    // The reorg: back before the send, then three other blocks at its heights (the node forgets the carrier).
    expect(await devnet.provider.request({ method: 'evm_revert', params: [snapshot] })).toBe(true)
    for (let block = 0; block < 3; block++) await devnet.provider.request({ method: 'evm_mine', params: [] })
    expect(await client.getBalance({ address: to })).toBe(0n)
    expect(await operationEvents(first.userOperation.hash)).toHaveLength(0)

    await aw.reconcile()
    expect(reorged.map((event) => event.data)).toContainEqual(
      expect.objectContaining({
        transactionId: first.id,
        status: 'submitted',
        blockNumber: first.blockNumber,
        blockHash: first.blockHash,
      }),
    )
    const relayer = (await relayerAccount(aw.context, 'default')).address as Address
    // The relayer's carrier went back too, as any tx of the relayer does.
    expect(reorged.map((event) => (event.data as { from: Address }).from)).toContain(relayer)

    const again = minedOperation(await settle(first.id))
    // The same op (never signed again), in a block the chain has now; the value arrived once.
    expect(again.userOperation.hash).toBe(first.userOperation.hash)
    expect(again.hash).toBe(first.hash)
    expect(again.blockHash).not.toBe(first.blockHash)
    const receipt = await client.getTransactionReceipt({ hash: again.hash })
    expect(again.blockHash).toBe(receipt.blockHash)
    expect(await client.getBalance({ address: to })).toBe(parseEther('0.3'))
    const events = await operationEvents(first.userOperation.hash)
    expect(events).toHaveLength(1)
    expect(events[0]!.args.success).toBe(true)
    expect(again.gasCost).toBe(events[0]!.args.actualGasCost.toString())
    const confirmations = confirmed.filter(
      (event) => (event.data as { transactionId?: string }).transactionId === first.id,
    )
    expect(confirmations).toHaveLength(2)
    const history = await aw.listHistory({ wallet: wallet.address })
    expect(history.transactions.filter((view) => view.id === first.id)).toHaveLength(1)
  })
})

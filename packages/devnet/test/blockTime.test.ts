import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseEther } from 'viem'
import { afterAll, describe, expect, it } from 'vitest'
import { createDevnet } from '../src/index.js'
import { clientsFor } from './clients.js'

const dataDir = mkdtempSync(join(tmpdir(), 'devnet-block-time-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

// An hour between blocks: no timed block falls inside a test unless the test shortens the interval.
const noTimedBlock = 3_600

describe('block time', () => {
  it('keeps a send in the pool until the timer mines a block', async () => {
    const devnet = await createDevnet({ blockTime: noTimedBlock })
    try {
      const { publicClient, wallet } = clientsFor(devnet)
      const head = await publicClient.getBlockNumber({ cacheTime: 0 })
      const hash = await wallet(1).sendTransaction({ to: wallet(2).account.address, value: 1n })
      expect(await publicClient.getBlockNumber({ cacheTime: 0 })).toBe(head)
      await expect(publicClient.getTransactionReceipt({ hash })).rejects.toMatchObject({
        name: 'TransactionReceiptNotFoundError',
      })
      await devnet.provider.request({ method: 'evm_setIntervalMining', params: [50] })
      const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
      expect(receipt.blockNumber).toBe(head + 1n)
      // The timer goes on without sends: empty blocks, as a real chain makes.
      await waitForBlock(() => publicClient.getBlockNumber({ cacheTime: 0 }), head + 3n)
      expect(await devnet.mintToken('USDC', wallet(2).account.address, 5n)).toMatch(/^0x/)
    } finally {
      await devnet.close()
    }
  })

  it('restarts a data-dir chain mined on a timer with the same blocks, and mines what was left in the pool', async () => {
    const first = await createDevnet({ dataDir, blockTime: noTimedBlock })
    const recipient = '0x000000000000000000000000000000000000bEEF'
    const { publicClient, wallet } = clientsFor(first)
    await first.provider.request({ method: 'evm_setIntervalMining', params: [30] })
    const sent = [
      await wallet(1).sendTransaction({ to: recipient, value: parseEther('1') }),
      await wallet(1).sendTransaction({ to: recipient, value: parseEther('2') }),
    ]
    const receipts = await Promise.all(
      sent.map((hash) => publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })),
    )
    await first.provider.request({ method: 'evm_setIntervalMining', params: [0] })
    const head = await publicClient.getBlock({ blockTag: 'latest' })
    const left = await wallet(1).sendTransaction({ to: recipient, value: parseEther('4') })
    await first.close()

    const second = await createDevnet({ dataDir })
    try {
      const after = clientsFor(second)
      for (const receipt of receipts) {
        const again = await after.publicClient.getTransactionReceipt({ hash: receipt.transactionHash })
        expect(again.blockHash).toBe(receipt.blockHash)
      }
      expect((await after.publicClient.getBlock({ blockNumber: head.number })).hash).toBe(head.hash)
      expect((await after.publicClient.getTransactionReceipt({ hash: left })).blockNumber).toBe(
        head.number + 1n,
      )
      expect(await after.publicClient.getBalance({ address: recipient })).toBe(parseEther('7'))
      // Started without a block time, it automines again.
      const now = await after.wallet(1).sendTransaction({ to: recipient, value: 1n })
      expect((await after.publicClient.getTransactionReceipt({ hash: now })).status).toBe('success')
    } finally {
      await second.close()
    }
  })
})

async function waitForBlock(read: () => Promise<bigint>, number: bigint): Promise<void> {
  while ((await read()) < number) await new Promise((resolve) => setTimeout(resolve, 20))
}

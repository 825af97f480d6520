import type { AgentWallet, TransactionRecord } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { createWalletClient, custom, type Hex, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  eventsOf,
  freshAddress,
  fundedWallet,
  publicClientOf,
  storedTransaction,
  type TestNode,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'

/**
 * Reorgs and finality, on `node`: the embedded devnet reorganises by `evm_snapshot` / `evm_revert`,
 * anvil by `anvil_reorg`.
 */
export function reorgFlow(node: TestNode): void {
  let devnet: Devnet
  let aw: AgentWallet

  // The tracker runs only when a test calls `reconcile()`, so each step is seen in order. Depth 5: a
  // reorg of 3 blocks stays inside it.
  useDevnetAgentWallet((started) => ({ devnet, aw } = started), { track: false, finalityDepth: 5 }, { node })

  /**
   * A reorg on the devnet, as an operator makes one: a snapshot before `act`, then back to it and
   * `blocks` new empty blocks, so the heights `act` mined at hold other blocks. The node forgets what
   * `act` sent (its pool is reverted too).
   */
  async function reorgAround(act: () => Promise<void>, blocks = 3): Promise<void> {
    const request = (method: string, params: unknown[] = []) => devnet.provider.request({ method, params })
    if (node === 'anvil') {
      // anvil's own reorg: the blocks `act` mined replaced by as many new ones, their txs dropped.
      const before = Number(await request('eth_blockNumber'))
      await act()
      const depth = Number(await request('eth_blockNumber')) - before
      await request('anvil_reorg', [depth, []])
      for (let index = depth; index < blocks; index++) await request('evm_mine')
      return
    }
    const snapshot = await request('evm_snapshot')
    await act()
    expect(await request('evm_revert', [snapshot])).toBe(true)
    for (let index = 0; index < blocks; index++) await request('evm_mine')
  }

  /**
   * Tracker passes until the tx is mined or failed: the send's `submitted` is saved in a batch just
   * after its answer, so one pass may run before the tracker can see it.
   */
  async function settle(id: string): Promise<TransactionRecord> {
    for (let pass = 0; pass < 50; pass++) {
      await aw.reconcile()
      const record = await storedTransaction(aw, id)
      if (record.status !== 'queued' && record.status !== 'submitted') return record
    }
    return storedTransaction(aw, id)
  }

  const blockHashAt = async (blockNumber: number): Promise<Hex | null> =>
    (await publicClientOf(devnet).getBlock({ blockNumber: BigInt(blockNumber) })).hash

  describe('a confirmed tx whose block leaves the chain', () => {
    it('goes back to submitted with tx.reorged, is broadcast again, and confirms in its new block', async () => {
      const wallet = await fundedWallet(aw, devnet, '1')
      const to = freshAddress()
      const reorged = eventsOf(aw, 'tx.reorged')
      const confirmed = eventsOf(aw, 'tx.confirmed')
      let first: { id: string; hash: Hex; blockNumber: number; blockHash: Hex | undefined } | undefined
      await reorgAround(async () => {
        const { transaction } = await aw.send({ wallet: wallet.address, to, value: '0.1' })
        const mined = await settle(transaction.id)
        expect(mined.status).toBe('confirmed')
        if (mined.blockNumber === undefined || mined.hash === undefined) throw new Error('not mined')
        first = { id: mined.id, hash: mined.hash, blockNumber: mined.blockNumber, blockHash: mined.blockHash }
      })
      if (!first) throw new Error('no send')
      // The node has another block at that height now, and no receipt of the tx.
      expect(await blockHashAt(first.blockNumber)).not.toBe(first.blockHash)
      expect(first.blockHash).toMatch(/^0x[0-9a-f]{64}$/)

      await aw.reconcile()
      const again = await storedTransaction(aw, first.id)
      expect(reorged.map((event) => event.data)).toEqual([
        expect.objectContaining({
          transactionId: first.id,
          status: 'submitted',
          blockNumber: first.blockNumber,
          blockHash: first.blockHash,
        }),
      ])
      // The same signed bytes (same hash, same nonce), mined again in a block the node has now.
      expect(again.status).toBe('confirmed')
      expect(again.hash).toBe(first.hash)
      const receipt = await publicClientOf(devnet).getTransactionReceipt({ hash: first.hash })
      expect(again.blockHash).toBe(receipt.blockHash)
      expect(again.blockNumber).toBe(Number(receipt.blockNumber))
      expect(again.blockHash).not.toBe(first.blockHash)
      const confirmedIds = confirmed.map((event) => (event.data as { transactionId?: string }).transactionId)
      expect(confirmedIds.filter((id) => id === first?.id)).toHaveLength(2)
      // Paid once: the recipient holds the value of one send.
      expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(parseEther('0.1'))
      const { transaction: view, confirmations } = await aw.getTransaction({ transaction: first.hash })
      expect(view.status).toBe('confirmed')
      expect(confirmations).toBe(1)
    })

    it('counts no confirmations while the tracker has not seen the reorg yet', async () => {
      const wallet = await fundedWallet(aw, devnet, '1')
      let hash: Hex | undefined
      await reorgAround(async () => {
        const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
        await settle(transaction.id)
        hash = transaction.hash ?? undefined
      })
      if (!hash) throw new Error('no send')
      const answer = await aw.getTransaction({ transaction: hash })
      expect(answer.status).toBe('confirmed')
      expect(answer.confirmations).toBe(0)
      await aw.reconcile()
    })
  })

  describe('the running tracker', () => {
    it('sees a reorg below the head it remembers, and confirms the tx again', async () => {
      // Its own AgentWallet with the tracker running (every 20 ms), which keeps what it found
      // canonical from one pass to the next (watchMemo) and must notice that head is gone.
      let headReads = 0
      const counted = {
        request: ((args: { method: string; params?: unknown }) => {
          if (args.method === 'eth_getBlockByNumber' && (args.params as unknown[])?.[0] === 'latest')
            headReads++
          return devnet.provider.request(args as Parameters<Devnet['provider']['request']>[0])
        }) as Devnet['provider']['request'],
      }
      /** Resolves once the tracker has begun two more passes (each reads the head once). */
      const passes = async () => {
        const from = headReads
        await expect.poll(() => headReads - from, { timeout: 10_000 }).toBeGreaterThanOrEqual(2)
      }
      const tracked = await agentWalletOn(devnet, {
        finalityDepth: 50,
        chains: { devnet: { provider: counted, chainId: devnet.chain.id, contracts: devnet.addressBook } },
      })
      try {
        const { wallet } = await tracked.createWallet({ agentName: 'tracked' })
        await devnet.faucet(wallet.address, parseEther('1'))
        const reorged = eventsOf(tracked, 'tx.reorged')
        let id: string | undefined
        let firstHash: Hex | undefined
        await reorgAround(async () => {
          const { transaction } = await tracked.send({
            wallet: wallet.address,
            to: freshAddress(),
            value: '0.1',
          })
          id = transaction.id
          expect((await tracked.waitForTransaction({ transaction: id })).status).toBe('confirmed')
          // A few passes over it, each on a longer chain: it is remembered as canonical.
          for (let block = 0; block < 3; block++) {
            await devnet.provider.request({ method: 'evm_mine', params: [] })
            await passes()
          }
          firstHash = (await storedTransaction(tracked, id)).blockHash
        })
        await expect.poll(() => reorged.length, { timeout: 10_000 }).toBe(1)
        await expect
          .poll(
            async () => {
              const record = await storedTransaction(tracked, id ?? '')
              return record.status === 'confirmed' && record.blockHash !== firstHash
            },
            { timeout: 10_000 },
          )
          .toBe(true)
      } finally {
        await tracked.close()
      }
    })
  })

  describe('spend limits and history across a reorg', () => {
    it('count a reorged tx once while it is submitted again, and once after it confirms again', async () => {
      const wallet = await fundedWallet(aw, devnet, '1')
      await aw.updatePolicyRules({
        wallet: wallet.address,
        rules: [{ type: 'spend_limit', asset: 'native', max: '0.25', window: '24h' }],
      })
      let reorgedId: string | undefined
      await reorgAround(async () => {
        const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
        expect((await settle(transaction.id)).status).toBe('confirmed')
        reorgedId = transaction.id
      })
      if (!reorgedId) throw new Error('no send')
      // Blocks only on demand: the tx sent again waits in the pool, `submitted`.
      await devnet.provider.request({ method: 'evm_setAutomine', params: [false] })
      try {
        await aw.reconcile()
        expect((await storedTransaction(aw, reorgedId)).status).toBe('submitted')
        // 0.1 (reorged, submitted) + 0.1 fits 0.25; a third 0.1 does not: counted once, not zero or twice.
        const second = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
        await expect(
          aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' }),
        ).rejects.toMatchObject({
          code: 'policy_blocked',
          details: { ruleType: 'spend_limit' },
        })
        await devnet.mine()
        expect((await settle(reorgedId)).status).toBe('confirmed')
        expect((await settle(second.transaction.id)).status).toBe('confirmed')
      } finally {
        await devnet.provider.request({ method: 'evm_setAutomine', params: [true] })
      }
      await expect(
        aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' }),
      ).rejects.toMatchObject({
        code: 'policy_blocked',
      })
      const history = await aw.listHistory({ wallet: wallet.address })
      expect(history.transactions.filter((view) => view.id === reorgedId)).toHaveLength(1)
    })
  })

  describe('a tx confirmed before block hashes were kept', () => {
    /** The stored record as an older version saved it: no block hash, no finality. */
    async function asSavedBefore(id: string): Promise<void> {
      const {
        blockHash: _hash,
        finality: _finality,
        finalizedAt: _at,
        ...old
      } = await storedTransaction(aw, id)
      await aw.context.storage.transaction([], (tx) => tx.put('transactions', old as TransactionRecord))
    }

    it('is checked once at start-up: kept with its block hash when canonical, sent again when not', async () => {
      const wallet = await fundedWallet(aw, devnet, '1')
      const kept = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
      await settle(kept.transaction.id)
      await asSavedBefore(kept.transaction.id)
      let lostId: string | undefined
      await reorgAround(async () => {
        const lost = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
        await settle(lost.transaction.id)
        await asSavedBefore(lost.transaction.id)
        lostId = lost.transaction.id
      })
      if (!lostId) throw new Error('no send')
      const reorged = eventsOf(aw, 'tx.reorged')
      await aw.reconcile()
      const checked = await storedTransaction(aw, kept.transaction.id)
      expect(checked.status).toBe('confirmed')
      if (checked.blockNumber === undefined) throw new Error('not mined')
      expect(checked.blockHash).toBe(await blockHashAt(checked.blockNumber))
      expect(reorged.map((event) => (event.data as { transactionId: string }).transactionId)).toEqual([
        lostId,
      ])
      const again = await settle(lostId)
      expect(again.status).toBe('confirmed')
      expect(again.blockHash).toBeDefined()
    })
  })

  describe('finality', () => {
    it('a mined tx is pending until finalityDepth blocks deep, then finalized', async () => {
      const wallet = await fundedWallet(aw, devnet, '1')
      const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
      await settle(transaction.id)
      const mined = await aw.getTransaction({ transaction: transaction.id })
      expect(mined.status).toBe('confirmed')
      expect(mined.transaction.finality).toBe('pending')
      expect(mined.confirmations).toBeLessThan(5)
      await devnet.provider.request({ method: 'evm_mine', params: [] })
      while ((await aw.getTransaction({ transaction: transaction.id })).confirmations < 5)
        await devnet.provider.request({ method: 'evm_mine', params: [] })
      await aw.reconcile()
      const final = await aw.getTransaction({ transaction: transaction.id })
      expect(final.status).toBe('confirmed')
      expect(final.transaction.finality).toBe('finalized')
      expect((await storedTransaction(aw, transaction.id)).finalizedAt).toBeDefined()
    })
  })

  describe('the next nonce follows the node', () => {
    it('after a reorg the wallet sends again (its stored next nonce no longer above the node’s)', async () => {
      const wallet = await fundedWallet(aw, devnet, '1')
      await reorgAround(async () => {
        const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
        expect((await settle(transaction.id)).status).toBe('confirmed')
      })
      await aw.reconcile()
      const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
      expect(transaction.status).toBe('submitted')
      expect((await settle(transaction.id)).status).toBe('confirmed')
    })

    it('a nonce above the node’s count: refused and re-derived (devnet), or queued until the hole fills (anvil)', async () => {
      const wallet = await fundedWallet(aw, devnet, '1')
      // The tracker does not run between the reorg and the sends: the reorged tx still reads
      // confirmed, our stored next nonce is one above the node's.
      await reorgAround(async () => {
        const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
        expect((await settle(transaction.id)).status).toBe('confirmed')
      })
      const refused = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
      if (node === 'anvil') {
        // anvil queues a nonce above its count (as geth does) instead of refusing it: the send waits on
        // the hole until the tracker sends the reorged tx again, then both are mined.
        expect(refused.transaction.status).toBe('submitted')
        expect((await settle(refused.transaction.id)).status).toBe('confirmed')
        return
      }
      expect(refused.transaction.status).toBe('failed')
      const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
      expect(transaction.status).toBe('submitted')
      expect((await settle(transaction.id)).status).toBe('confirmed')
    })

    it('adopts a tx sent from elsewhere with an imported key', async () => {
      const key = generatePrivateKey()
      const account = privateKeyToAccount(key)
      await devnet.faucet(account.address, parseEther('1'))
      const { wallet } = await aw.importWallet({ privateKey: key, agentName: 'imported-elsewhere' })
      const before = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
      await settle(before.transaction.id)
      const outside = createWalletClient({ account, chain: devnet.chain, transport: custom(devnet.provider) })
      await outside.sendTransaction({ to: freshAddress(), value: 1n })
      const { transaction } = await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
      expect(transaction.status).toBe('submitted')
      const stored = await settle(transaction.id)
      expect(stored.status).toBe('confirmed')
      expect(stored.nonce).toBe((before.transaction.nonce ?? 0) + 2)
    })
  })
}

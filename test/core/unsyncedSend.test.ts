import type * as fs from 'node:fs'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { sqliteStorage } from '@agentwallet/sqlite'
import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  agentWalletOn,
  freshAddress,
  fundedWallet,
  publicClientOf,
  startDevnet,
} from '../helpers/devnetAgentWallet.js'
import { heldSyncs } from '../helpers/heldSyncs.js'

vi.mock('node:fs', async (original) =>
  (await import('../helpers/heldSyncs.js')).holdingSyncs(await original<typeof fs>()),
)
const { held } = heldSyncs
const releaseSyncs = () => heldSyncs.release()

let devnet: Devnet
const dir = mkdtempSync(join(tmpdir(), 'aw-unsynced-send-'))
beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(async () => {
  releaseSyncs()
  await devnet?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('a send whose intent is not yet on disk (SQLite group commit)', () => {
  it('lets the wallet lock go to the next send, and broadcasts neither before the sync', async () => {
    const storage = sqliteStorage({ filename: join(dir, 'aw.db') })
    let aw: AgentWallet | undefined
    try {
      aw = await agentWalletOn(devnet, { storage, masterKey: '44'.repeat(32), track: false })
      const wallet = await fundedWallet(aw, devnet, '1')
      const node = publicClientOf(devnet)
      heldSyncs.holding = true
      const first = aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
      const second = aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
      // Both intents signed and applied, the second judged under the lock the first let go of
      // while its sync was held.
      const unsynced = storage.unsynced!
      await vi.waitUntil(
        async () =>
          (await unsynced.reader.query('transactions', { where: { walletId: wallet.id } })).length === 2,
        { timeout: 10_000 },
      )
      const records = await unsynced.reader.query('transactions', { where: { walletId: wallet.id } })
      expect(records.map((record) => record.nonce).sort()).toEqual([0, 1])
      expect(held.length).toBeGreaterThan(0)
      await new Promise((resolve) => setTimeout(resolve, 50))
      // The node has neither: nothing went out before it was on disk.
      expect(await node.getTransactionCount({ address: wallet.address, blockTag: 'pending' })).toBe(0)
      releaseSyncs()
      const answers = await Promise.all([first, second])
      expect(answers.map((answer) => answer.transaction.status)).toEqual(['submitted', 'submitted'])
      expect(await node.getTransactionCount({ address: wallet.address, blockTag: 'pending' })).toBe(2)
    } finally {
      releaseSyncs()
      await aw?.close()
      await storage.close()
    }
  })

  it('holds a spend limit exactly over 50 concurrent sends, and across a reopen of the file', async () => {
    const filename = join(dir, 'limit.db')
    const masterKey = '45'.repeat(32)
    const storage = sqliteStorage({ filename })
    const aw = await agentWalletOn(devnet, { storage, masterKey })
    const wallet = await fundedWallet(aw, devnet, '10')
    const to = freshAddress()
    try {
      await aw.updatePolicyRules({
        wallet: wallet.address,
        rules: [{ type: 'spend_limit', asset: 'native', max: '1', window: '24h' }],
      })
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, () => aw.send({ wallet: wallet.address, to, value: '0.1' })),
      )
      const accepted = results.filter((result) => result.status === 'fulfilled')
      expect(accepted).toHaveLength(10)
      for (const result of results)
        if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'policy_blocked' })
      await Promise.all(
        accepted.map((result) => aw.waitForTransaction({ transaction: result.value.transaction.id })),
      )
      expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(parseEther('1'))
    } finally {
      await aw.close()
      await storage.close()
    }
    const reopened = sqliteStorage({ filename })
    const again = await agentWalletOn(devnet, { storage: reopened, masterKey })
    try {
      await expect(again.send({ wallet: wallet.address, to, value: '0.1' })).rejects.toMatchObject({
        code: 'policy_blocked',
      })
      const sent = await reopened.query('transactions', {
        where: { walletId: wallet.id, status: 'confirmed' },
      })
      expect(sent.map((record) => record.nonce).sort((a, b) => Number(a) - Number(b))).toEqual([
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
      ])
    } finally {
      await again.close()
      await reopened.close()
    }
  })
})

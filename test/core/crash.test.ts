import { type AgentWallet, type KeyVault, memoryStorage } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentWalletOn, freshAddress, publicClientOf, startDevnet } from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
const closers: AgentWallet[] = []

beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(async () => {
  for (const aw of closers) await aw.close()
  await devnet?.close()
})

/**
 * The point where a process "dies": from the `n`th call on, `dies()` is true and the caller never
 * answers. `reached` settles once that call came, so a test snapshots storage at the moment of
 * death, not after a guess at how long the work before it takes.
 */
function deathAt(n: number, what: string) {
  let calls = 0
  let reach: () => void = () => {}
  const reached = new Promise<void>((resolve) => {
    reach = resolve
  })
  return {
    dies(): boolean {
      if (++calls < n) return false
      reach()
      return true
    },
    /** Resolves when the process died; rejects, naming the awaited call, if it did not in 30 s. */
    reached: () => within(reached, 30_000, `the ${what} (call ${n}) where the process dies`),
  }
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`waited ${ms} ms for ${what}`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** An EIP-1193 provider whose process dies at the `n`th call of `method`: that call never answers. */
function dyingAt(method: string, n: number) {
  const death = deathAt(n, method)
  const provider = {
    request: (args: { method: string; params?: unknown }) => {
      if (args.method === method && death.dies()) return new Promise<never>(() => {})
      return devnet.provider.request(args as Parameters<Devnet['provider']['request']>[0])
    },
  }
  return { provider, death }
}

/** Fires sends without awaiting them (the dying process never answers some); resolves once `settled` have. */
async function burst(aw: AgentWallet, from: string, count: number, settled: number) {
  let done = 0
  for (let index = 0; index < count; index++) {
    void aw.send({ wallet: from, to: freshAddress(), value: '0.01' }).then(
      () => done++,
      () => done++,
    )
  }
  await expect
    .poll(() => done, { timeout: 30_000, message: `${settled} of ${count} sends to settle` })
    .toBe(settled)
}

describe('crash safety', () => {
  it('rebroadcasts a tx signed before a crash, never re-signing it, and loses no accepted intent', async () => {
    const storage = memoryStorage()
    // Process A dies inside its 5th broadcast: after the signed tx was persisted, before the node saw it.
    const { provider, death } = dyingAt('eth_sendRawTransaction', 5)
    const dying = await agentWalletOn(devnet, {
      storage,
      masterKey: '11'.repeat(32),
      chains: { devnet: { provider, chainId: 31337, contracts: devnet.addressBook } },
      track: false,
    })
    const { wallet } = await dying.createWallet({ agentName: 'crashy' })
    await devnet.faucet(wallet.address, parseEther('10'))
    await burst(dying, wallet.address, 12, 4)
    await death.reached()

    // What a durable store holds at the moment of death. The lock is released once a signed tx is
    // durable, so sends after the 5th were signed and saved while it hung: each waits, signed, in the
    // wallet's lane behind it.
    const afterCrash = memoryStorage({ snapshot: storage.snapshot() })
    const records = (await afterCrash.query('transactions')).sort((a, b) => a.nonce! - b.nonce!)
    const signedBeforeCrash = records.filter((record) => record.status === 'queued')
    expect(signedBeforeCrash.length).toBeGreaterThanOrEqual(1)
    expect(signedBeforeCrash.every((record) => record.rawTx !== undefined)).toBe(true)
    expect(signedBeforeCrash[0]!.nonce).toBe(4)
    const count = records.length
    expect(records.map((record) => record.nonce)).toEqual([...Array(count).keys()])

    // Process B starts on the same storage and master key; start-up reconciliation finishes the work.
    const restarted = await agentWalletOn(devnet, { storage: afterCrash, masterKey: '11'.repeat(32) })
    closers.push(restarted)
    const final = await Promise.all(
      records.map((record) => restarted.waitForTransaction({ transaction: record.id })),
    )
    expect(final.every((answer) => answer.status === 'confirmed')).toBe(true)

    // Every tx signed before the crash went out as signed: the same hash, the same nonce.
    for (const before of signedBeforeCrash) {
      const after = final.find((answer) => answer.transaction.id === before.id)!
      expect([after.hash, after.transaction.nonce]).toEqual([before.hash, before.nonce])
    }
    const client = publicClientOf(devnet)
    expect(await client.getTransactionCount({ address: wallet.address })).toBe(count)
    const onChain = await Promise.all(final.map((answer) => client.getTransaction({ hash: answer.hash! })))
    expect(onChain.map((tx) => tx.nonce).sort((a, b) => a - b)).toEqual([...Array(count).keys()])

    // And the restarted process keeps going from the right nonce.
    const next = await restarted.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
    expect((await restarted.waitForTransaction({ transaction: next.transaction.id })).transaction.nonce).toBe(
      count,
    )
  })

  it('saves nothing of an intent whose signing a crash cut short, and burns no nonce for it', async () => {
    const storage = memoryStorage()
    const base = await agentWalletOn(devnet, { storage, masterKey: '22'.repeat(32), track: false })
    const { wallet } = await base.createWallet({ agentName: 'crashy-2' })
    await devnet.faucet(wallet.address, parseEther('10'))
    // Process A dies while its vault is signing the 3rd intent. An intent is signed before it is
    // saved (intent, raw tx and nonce are one commit), so that one was never accepted.
    const death = deathAt(3, 'vault signing')
    const vault: KeyVault = {
      ...base.context.vault,
      async getSigner(address) {
        if (death.dies()) return new Promise(() => {})
        return base.context.vault.getSigner(address)
      },
    }
    const dying = await agentWalletOn(devnet, { storage, vault, track: false })
    await burst(dying, wallet.address, 6, 2)
    await death.reached()

    const afterCrash = memoryStorage({ snapshot: storage.snapshot() })
    const stored = await afterCrash.query('transactions')
    expect(stored).toHaveLength(2)
    expect(stored.filter((record) => !record.rawTx)).toEqual([])

    const restarted = await agentWalletOn(devnet, { storage: afterCrash, masterKey: '22'.repeat(32) })
    closers.push(restarted)
    const final = await Promise.all(
      stored.map((record) => restarted.waitForTransaction({ transaction: record.id })),
    )
    expect(final.map((answer) => answer.status)).toEqual(['confirmed', 'confirmed'])
    expect(final.map((answer) => answer.transaction.nonce).sort()).toEqual([0, 1])
    const next = await restarted.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' })
    expect((await restarted.waitForTransaction({ transaction: next.transaction.id })).transaction.nonce).toBe(
      2,
    )
    expect(await publicClientOf(devnet).getTransactionCount({ address: wallet.address })).toBe(3)
  })
})

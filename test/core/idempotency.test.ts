import { type AgentWallet, idempotencyRecordId, requestHash } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Hex, parseEther, TimeoutError } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  freshAddress,
  fundedWallet,
  publicClientOf,
  storedTransaction,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet

useDevnetAgentWallet((started) => ({ devnet, aw } = started))

describe('idempotency', () => {
  it('returns the first result for a replay and sends once, even when replays race', async () => {
    const wallet = await fundedWallet(aw, devnet, '5')
    const to = freshAddress()
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        aw.send({ wallet: wallet.address, to, value: '0.2' }, { idempotencyKey: 'pay-1' }),
      ),
    )
    const ids = new Set(results.map((result) => result.transaction.id))
    expect(ids.size).toBe(1)
    await aw.waitForTransaction({ transaction: [...ids][0]! })
    expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(parseEther('0.2'))
    expect((await aw.listHistory({ wallet: wallet.address })).count).toBe(1)
    // Later replays see the current state of that one transaction.
    const replay = await aw.send({ wallet: wallet.address, to, value: '0.2' }, { idempotencyKey: 'pay-1' })
    expect(replay.transaction.status).toBe('confirmed')
  })

  it('refuses another request under a used key', async () => {
    const wallet = await fundedWallet(aw, devnet, '5')
    await aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' }, { idempotencyKey: 'pay-2' })
    await expect(
      aw.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' }, { idempotencyKey: 'pay-2' }),
    ).rejects.toMatchObject({ code: 'idempotency_conflict' })
  })

  it('replays a blocked send as the same policy_blocked error without a second record', async () => {
    const wallet = await fundedWallet(aw, devnet, '5')
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'max_per_tx', asset: 'native', max: '0.1' }],
    })
    const body = { to: freshAddress(), value: '1' }
    const first = await aw
      .send({ wallet: wallet.address, ...body }, { idempotencyKey: 'big' })
      .catch((error) => error)
    const second = await aw
      .send({ wallet: wallet.address, ...body }, { idempotencyKey: 'big' })
      .catch((error) => error)
    expect(first).toMatchObject({ code: 'policy_blocked' })
    expect(second).toMatchObject({
      code: 'policy_blocked',
      details: { transactionId: first.details.transactionId },
    })
    expect((await aw.listHistory({ wallet: wallet.address })).count).toBe(1)
  })

  it('creates one wallet per key', async () => {
    const [a, b] = await Promise.all([
      aw.createWallet({ agentName: 'same' }, { idempotencyKey: 'w-1' }),
      aw.createWallet({ agentName: 'same' }, { idempotencyKey: 'w-1' }),
    ])
    expect(a.wallet.address).toBe(b.wallet.address)
    await expect(aw.createWallet({ agentName: 'other' }, { idempotencyKey: 'w-1' })).rejects.toMatchObject({
      code: 'idempotency_conflict',
    })
  })

  it('scopes keys to the principal', async () => {
    const one = aw.as({ tenantId: 'default', id: 'p1', role: 'admin' })
    const two = aw.as({ tenantId: 'default', id: 'p2', role: 'admin' })
    const a = await one.createWallet({ agentName: 'x' }, { idempotencyKey: 'shared' })
    const b = await two.createWallet({ agentName: 'x' }, { idempotencyKey: 'shared' })
    expect(a.wallet.address).not.toBe(b.wallet.address)
  })
})

describe('a node that rejects a broadcast', () => {
  it('fails that tx and gives its nonce to the next send (no gap)', async () => {
    let reject = 1
    const provider = {
      request: async (args: { method: string; params?: unknown }) => {
        if (args.method === 'eth_sendRawTransaction' && reject-- > 0) {
          throw Object.assign(new Error('rejected by policy of this node'), { code: -32003 })
        }
        return devnet.provider.request(args as Parameters<Devnet['provider']['request']>[0])
      },
    }
    const picky = await agentWalletOn(devnet, {
      chains: { devnet: { provider, chainId: 31337, contracts: devnet.addressBook } },
    })
    try {
      const wallet = await fundedWallet(picky, devnet, '1')
      const failed = await picky.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
      expect(failed.transaction.status).toBe('failed')
      expect(failed.transaction.nonce).toBe(0)
      const next = await picky.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
      const done = await picky.waitForTransaction({ transaction: next.transaction.id })
      expect(done.status).toBe('confirmed')
      expect(done.transaction.nonce).toBe(0)
    } finally {
      await picky.close()
    }
  })

  it('sends a lower nonce it still owes the node before a later one the node refuses for the gap', async () => {
    // The first broadcast times out before reaching the node: that tx stays queued, signed at nonce 0,
    // and the tracker would retry it only once stale. An automining node refuses nonce 1 meanwhile.
    let timeouts = 1
    const sent: Hex[] = []
    const provider = {
      request: async (args: { method: string; params?: unknown }) => {
        if (args.method === 'eth_sendRawTransaction') {
          if (timeouts-- > 0) throw new TimeoutError({ body: {}, url: 'http://node' })
          sent.push((args.params as [Hex])[0])
        }
        return devnet.provider.request(args as Parameters<Devnet['provider']['request']>[0])
      },
    }
    const owing = await agentWalletOn(devnet, {
      chains: { devnet: { provider, chainId: 31337, contracts: devnet.addressBook } },
      rebroadcastAfterMs: 600_000,
    })
    try {
      const wallet = await fundedWallet(owing, devnet, '1')
      const first = await owing.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
      expect(first.transaction.status).toBe('queued')
      const second = await owing.send({ wallet: wallet.address, to: freshAddress(), value: '0.1' })
      expect(second.transaction.status).toBe('submitted')
      const done = await Promise.all(
        [first, second].map((answer) => owing.waitForTransaction({ transaction: answer.transaction.id })),
      )
      expect(done.map((tx) => [tx.status, tx.transaction.nonce])).toEqual([
        ['confirmed', 0],
        ['confirmed', 1],
      ])
      // The owed tx went out byte for byte as signed, before the later one.
      const [owed, later] = await Promise.all(
        [first, second].map((answer) => storedTransaction(owing, answer.transaction.id)),
      )
      expect(sent.filter((raw) => raw === owed!.rawTx || raw === later!.rawTx)).toEqual([
        later!.rawTx,
        owed!.rawTx,
        later!.rawTx,
      ])
    } finally {
      await owing.close()
    }
  })

  it('does not replay an answer stored before the operations declared their outputs, nor act again', async () => {
    const principal = aw.principal
    const key = 'create-before-upgrade'
    const input = { agentName: 'stored-before' }
    // A record as the previous version wrote it: the bare wallet, no resultFormat.
    await aw.context.storage.transaction([], (tx) =>
      tx.insert('idempotency', {
        id: idempotencyRecordId(principal.tenantId, principal.id, key),
        operation: 'wallet.create',
        requestHash: requestHash({ operation: 'wallet.create', request: input }),
        result: { id: 'wal_old', address: freshAddress(), chain: 'devnet', agentName: 'stored-before' },
        createdAt: new Date().toISOString(),
      }),
    )
    const before = (await aw.listWallets()).count
    await expect(aw.createWallet(input, { idempotencyKey: key })).rejects.toMatchObject({
      code: 'idempotency_conflict',
      details: { reason: 'stored_before_upgrade' },
    })
    expect((await aw.listWallets()).count).toBe(before)
  })
})

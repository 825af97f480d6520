import { type AgentWallet, type Principal, relayerAccount, type TransactionRecord } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Hex, parseEther } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { freshAddress, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet
let relayerId: string
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

const agent: Principal = { tenantId: 'default', id: 'agent-by-hash', role: 'agent' }

beforeAll(async () => {
  // The operator funds the tenant's relayer: its handleOps carries every smart send.
  const relayer = await relayerAccount(aw.context, 'default')
  relayerId = relayer.id
  await devnet.faucet(relayer.address, parseEther('10'))
})

/** What a call failed with (the test fails if it succeeded). */
async function failureOf(call: Promise<unknown>): Promise<{ code: string }> {
  const outcome = await call.then(
    (answer) => ({ answer }),
    (error: unknown) => ({ error }),
  )
  if (!('error' in outcome)) throw new Error(`expected a failure, got ${JSON.stringify(outcome.answer)}`)
  return outcome.error as { code: string }
}

/** The relayer's own record of the tx that carried a send (same hash, the relayer's wallet). */
async function carrierOf(hash: Hex): Promise<TransactionRecord> {
  const [carrier] = await aw.context.storage.query('transactions', {
    where: { hash: hash.toLowerCase(), walletId: relayerId },
  })
  if (!carrier) throw new Error(`no relayer record under ${hash}`)
  return carrier
}

describe('a smart send is found by its hash', () => {
  it('answers each of 8 smart sends to its agent and to an admin by hash (get, details, wait), naming its carrier beside it', async () => {
    const session = aw.as(agent)
    const { wallet } = await session.createWallet({ agentName: 'smart-by-hash', kind: 'smart' })
    await devnet.faucet(wallet.address, parseEther('5'))
    const sent = []
    for (let index = 0; index < 8; index++)
      sent.push(await session.send({ wallet: wallet.address, to: freshAddress(), value: '0.01' }))
    const done = await Promise.all(
      sent.map(({ transaction }) => session.waitForTransaction({ transaction: transaction.id })),
    )
    expect(done.map(({ status }) => status)).toEqual(Array(8).fill('confirmed'))

    for (const { transaction: send } of done) {
      const hash = send.hash!
      const carrier = await carrierOf(hash)
      expect(carrier.kind).toBe('contract_call')

      // The agent that sent it: its send, by hash, through each lookup; the relayer's record is not its own.
      const got = await session.getTransaction({ transaction: hash })
      expect(got.transaction).toMatchObject({ id: send.id, kind: 'transfer', from: wallet.address, hash })
      expect(got.transaction.carrier).toBeUndefined()
      const details = await session.getTransactionDetails({ transaction: hash })
      expect(details.transaction).toMatchObject({ id: send.id, kind: 'transfer' })
      const waited = await session.waitForTransaction({ transaction: hash, timeoutMs: 1_000 })
      expect(waited).toMatchObject({ final: true, transaction: { id: send.id, status: 'confirmed' } })
      expect((await failureOf(session.getTransaction({ transaction: carrier.id }))).code).toBe('not_found')

      // An admin: the send too, with the relayer's record named as its carrier, not in its place.
      const admin = await aw.getTransaction({ transaction: hash })
      expect(admin.transaction).toMatchObject({
        id: send.id,
        kind: 'transfer',
        carrier: { id: carrier.id, hash },
      })
      expect((await aw.getTransactionDetails({ transaction: hash })).transaction).toMatchObject({
        id: send.id,
        carrier: { id: carrier.id, hash },
      })
      // The carrier by its id names what it carried.
      const byId = await aw.getTransaction({ transaction: carrier.id })
      expect(byId.transaction).toMatchObject({ id: carrier.id, kind: 'contract_call', carried: [send.id] })
    }
  })

  it('answers, for a hash several sends share (one bundle), each agent its own oldest send and an admin the oldest, naming the others', async () => {
    const agentA: Principal = { tenantId: 'default', id: 'agent-bundle-a', role: 'agent' }
    const agentB: Principal = { tenantId: 'default', id: 'agent-bundle-b', role: 'agent' }
    const sendFrom = async (principal: Principal, count: number) => {
      const session = aw.as(principal)
      const { wallet } = await session.createWallet({ agentName: principal.id, kind: 'smart' })
      await devnet.faucet(wallet.address, parseEther('1'))
      const ids = []
      for (let index = 0; index < count; index++) {
        const { transaction } = await session.send({
          wallet: wallet.address,
          to: freshAddress(),
          value: '0.01',
        })
        ids.push((await session.waitForTransaction({ transaction: transaction.id })).transaction.id)
      }
      return ids
    }
    const [firstOfA, secondOfA] = await sendFrom(agentA, 2)
    const [onlyOfB] = await sendFrom(agentB, 1)
    // An external bundler puts several ops in one handleOps: their sends share its hash. The relayer
    // bundles one op per tx, so the bundle is written as such a bundler leaves it (no carrier stored).
    const bundle = `0x${'b7'.repeat(32)}` as Hex
    const ids = [firstOfA!, onlyOfB!, secondOfA!]
    await aw.context.storage.transaction([], async (tx) => {
      for (const [index, id] of ids.entries()) {
        const record = await tx.get('transactions', id)
        if (record?.status !== 'confirmed') throw new Error(`send ${id} is not confirmed`)
        await tx.put('transactions', {
          ...record,
          hash: bundle,
          createdAt: `2026-01-01T00:00:0${index}.000Z`,
        })
      }
    })

    const ofA = await aw.as(agentA).getTransaction({ transaction: bundle })
    expect(ofA.transaction).toMatchObject({ id: firstOfA, carried: [secondOfA] })
    expect(ofA.transaction.carrier).toBeUndefined()
    const ofB = await aw.as(agentB).getTransaction({ transaction: bundle })
    expect(ofB.transaction).toMatchObject({ id: onlyOfB })
    expect(ofB.transaction.carried).toBeUndefined()
    const ofAdmin = await aw.getTransaction({ transaction: bundle })
    expect(ofAdmin.transaction).toMatchObject({ id: firstOfA, carried: [onlyOfB, secondOfA] })
    expect(
      (await aw.as(agentB).waitForTransaction({ transaction: bundle, timeoutMs: 0 })).transaction.id,
    ).toBe(onlyOfB)
  })
})

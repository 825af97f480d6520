import { createSolanaRpcFromTransport, generateKeyPairSigner } from '@solana/kit'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSolanaDevnet } from './solanaClients.js'

let env: Awaited<ReturnType<typeof startSolanaDevnet>>

beforeAll(async () => {
  env = await startSolanaDevnet()
})
afterAll(() => env.close())

it('notifies accountSubscribe and slotSubscribe when a transaction lands', async () => {
  const wallet = await generateKeyPairSigner()
  const abort = new AbortController()
  try {
    const accounts = await env.rpcSubscriptions
      .accountNotifications(wallet.address, { encoding: 'base64' })
      .subscribe({ abortSignal: abort.signal })
    const slots = await env.rpcSubscriptions.slotNotifications().subscribe({ abortSignal: abort.signal })
    const before = await env.rpc.getSlot().send()
    await env.devnet.airdrop(wallet.address, 5_000_000n)
    const [account, slot] = await Promise.all([
      accounts[Symbol.asyncIterator]().next(),
      slots[Symbol.asyncIterator]().next(),
    ])
    expect(account.value.value.lamports).toBe(5_000_000n)
    expect(account.value.context.slot).toBe(before + 1n)
    expect(slot.value.slot).toBe(before + 1n)
  } finally {
    abort.abort()
  }
})

it('answers in process through its kit transport what it answers over HTTP', async () => {
  const wallet = await generateKeyPairSigner()
  await env.devnet.airdrop(wallet.address, 7_000_000n)
  const local = createSolanaRpcFromTransport(env.devnet.transport)
  expect(await local.getBalance(wallet.address).send()).toEqual(
    await env.rpc.getBalance(wallet.address).send(),
  )
  expect(await local.getEpochInfo().send()).toEqual(await env.rpc.getEpochInfo().send())
})

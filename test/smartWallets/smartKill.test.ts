import { dummySignature } from '@agentwallet/core'
import { withAddressBook } from '@agentwallet/devnet'
import {
  type Address,
  decodeFunctionData,
  type Hex,
  isAddressEqual,
  parseEther,
  parseEventLogs,
  parseTransaction,
} from 'viem'
import { entryPoint08Abi, entryPoint08Address } from 'viem/account-abstraction'
import { describe, expect, it } from 'vitest'
import { freshAddress, publicClientOf } from '../helpers/devnetAgentWallet.js'
import { type FaultCall, faults } from '../helpers/faultyChain.js'
import { killableServers } from '../helpers/killableServer.js'

const env = {
  AGENTWALLET_MASTER_KEY: 'c7'.repeat(32),
  AGENTWALLET_ADMIN_KEY: `aw_smart_kill_admin_${'6'.repeat(32)}`,
  AGENTWALLET_LOG_LEVEL: 'warn',
}

// Over JSON-RPC the server learns where the EntryPoint and the DeleGators are (`agentwallet_addressBook`).
const servers = killableServers({
  name: 'smart-kill',
  env,
  behind: (devnet) => withAddressBook(devnet.provider, devnet.addressBook),
})
const { serve, call } = servers

/**
 * The sender of the single signed op a `handleOps` calldata carries, if it is one (not the gas
 * estimate's simulation, whose op carries the stub signature).
 */
function opSenderOf(data: unknown): Address | undefined {
  if (typeof data !== 'string' || !data.startsWith('0x')) return undefined
  try {
    const decoded = decodeFunctionData({ abi: entryPoint08Abi, data: data as Hex })
    if (decoded.functionName !== 'handleOps') return undefined
    const [op] = decoded.args[0]
    return op && op.signature !== dummySignature ? op.sender : undefined
  } catch {
    return undefined
  }
}

/** Whether a JSON-RPC call is the relayer's `eth_call` check of a handleOps of `sender`'s op. */
function isHandleOpsCheck(request: FaultCall, sender: Address): boolean {
  if (request.method !== 'eth_call') return false
  const data = (request.params[0] as { data?: unknown; input?: unknown } | undefined) ?? {}
  const carried = opSenderOf(data.data ?? data.input)
  return carried !== undefined && isAddressEqual(carried, sender)
}

/** Whether a JSON-RPC call broadcasts a handleOps of `sender`'s op. */
function isHandleOpsBroadcast(request: FaultCall, sender: Address): boolean {
  if (request.method !== 'eth_sendRawTransaction') return false
  const carried = opSenderOf(parseTransaction(request.params[0] as Hex).data)
  return carried !== undefined && isAddressEqual(carried, sender)
}

/** A send's record, polled until the tracker of the server at `url` has it confirmed. */
async function confirmedView(url: string, id: string) {
  await expect
    .poll(async () => (await call(url, 'GET', `/wallet/tx/${id}`)).body.transaction?.status, {
      timeout: 60_000,
      interval: 200,
    })
    .toBe('confirmed')
  return (await call(url, 'GET', `/wallet/tx/${id}`)).body.transaction
}

describe('agentwallet serve killed (SIGKILL) during a smart wallet’s sends', () => {
  it('loses nothing and does nothing twice: between signing and submission, and between submission and receipt', async () => {
    let { server, url } = await serve()
    // The tenant's relayer is made by the first smart wallet's create; the operator funds it.
    const unfunded = await call(url, 'POST', '/wallet/create', { agentName: 'kill-smart', kind: 'smart' })
    expect(unfunded.status).toBeGreaterThanOrEqual(400)
    expect(unfunded.status).toBeLessThan(500)
    const listed = await call(url, 'GET', '/wallet/list')
    const relayer = listed.body.wallets.find((wallet: { kind: string }) => wallet.kind === 'relayer')
    await servers.devnet.faucet(relayer.address, parseEther('10'))
    const created = await call(url, 'POST', '/wallet/create', { agentName: 'kill-smart', kind: 'smart' })
    expect(created.status).toBe(201)
    const wallet = created.body.wallet.address as Address
    const sessionKey = created.body.wallet.smart.sessionKey as Address
    await servers.devnet.faucet(wallet, parseEther('5'))
    const send = (to: Address, value: string, key: string) =>
      call(url, 'POST', `/wallet/${wallet}/send`, { to, value }, key)
    const recipients = { a: freshAddress(), b: freshAddress(), c: freshAddress(), d: freshAddress() }
    const values = { a: '0.11', b: '0.22', c: '0.33', d: '0.44' } as const
    const ids = {} as Record<'a' | 'b' | 'c' | 'd', string>

    // A: an ordinary send, confirmed (it also deploys the wallet and funds the session's deposit).
    const a = await send(recipients.a, values.a, 'kill-a')
    expect(a.status).toBe(200)
    ids.a = a.body.transaction.id
    await confirmedView(url, ids.a)

    // B: the op is signed and saved, then the relayer's eth_call check of it never answers → kill -9.
    servers.proxy.setPlan((request) => (isHandleOpsCheck(request, sessionKey) ? faults.hang : undefined))
    const b = send(recipients.b, values.b, 'kill-b').catch((error: unknown) => error)
    await expect
      .poll(() => servers.proxy.count({ fault: 'hang', method: 'eth_call' }), {
        timeout: 60_000,
        interval: 50,
      })
      .toBeGreaterThan(0)
    await server.kill('SIGKILL')
    expect(await b).toBeInstanceOf(Error) // the client never had its answer
    servers.proxy.setPlan([])
    ;({ server, url } = await serve())
    // The replay answers the intent accepted before the kill; the op saved then is the one included.
    const bAgain = await send(recipients.b, values.b, 'kill-b')
    expect(bAgain.status).toBe(200)
    ids.b = bAgain.body.transaction.id
    await confirmedView(url, ids.b)

    // C: the relayer's handleOps reaches the node (mined at once), then the node answers nothing more → kill -9.
    let broadcast = false
    servers.proxy.setPlan((request) => {
      if (broadcast) return faults.hang
      if (isHandleOpsBroadcast(request, sessionKey)) broadcast = true
      return undefined
    })
    const c = send(recipients.c, values.c, 'kill-c').catch((error: unknown) => error)
    await expect.poll(() => broadcast, { timeout: 60_000, interval: 50 }).toBe(true)
    await expect
      .poll(() => servers.proxy.count({ fault: 'hang' }), { timeout: 60_000, interval: 50 })
      .toBeGreaterThan(0)
    await server.kill('SIGKILL')
    await c
    // The op is on chain already; the server died before it read any receipt.
    expect(await publicClientOf(servers.devnet).getBalance({ address: recipients.c })).toBe(
      parseEther(values.c),
    )
    servers.proxy.setPlan([])
    ;({ server, url } = await serve())
    const cAgain = await send(recipients.c, values.c, 'kill-c')
    expect(cAgain.status).toBe(200)
    ids.c = cAgain.body.transaction.id
    await confirmedView(url, ids.c)

    // D: the restarted server sends on as usual.
    const d = await send(recipients.d, values.d, 'kill-d')
    ids.d = d.body.transaction.id
    await confirmedView(url, ids.d)

    // Every accepted send confirmed exactly once: one recipient credit, one op, one carrier each.
    const client = publicClientOf(servers.devnet)
    for (const key of ['a', 'b', 'c', 'd'] as const)
      expect(await client.getBalance({ address: recipients[key] })).toBe(parseEther(values[key]))
    const logs = await client.getLogs({ address: entryPoint08Address, fromBlock: 0n })
    const ops = parseEventLogs({ abi: entryPoint08Abi, logs, eventName: 'UserOperationEvent' }).filter(
      (event) => isAddressEqual(event.args.sender, sessionKey),
    )
    expect(ops).toHaveLength(4)
    expect(ops.every((event) => event.args.success)).toBe(true)
    expect(new Set(ops.map((event) => event.args.userOpHash)).size).toBe(4)
    const carriers = (await call(url, 'GET', `/wallet/${relayer.address}/history`)).body.transactions.filter(
      (view: { meta?: { sender?: string } }) =>
        view.meta?.sender && isAddressEqual(view.meta.sender as Address, sessionKey),
    )
    expect(carriers).toHaveLength(4)
    expect(new Set(carriers.map((view: { meta: { userOpHash: string } }) => view.meta.userOpHash))).toEqual(
      new Set(ops.map((event) => event.args.userOpHash)),
    )
    const history = (await call(url, 'GET', `/wallet/${wallet}/history`)).body.transactions
    expect(history).toHaveLength(4)
    expect(history.every((view: { status: string }) => view.status === 'confirmed')).toBe(true)
    expect(new Set(history.map((view: { id: string }) => view.id))).toEqual(new Set(Object.values(ids)))

    // Idempotent replays answer the first, whichever process accepted it.
    for (const key of ['a', 'b', 'c', 'd'] as const) {
      const replay = await send(recipients[key], values[key], `kill-${key}`)
      expect(replay.status).toBe(200)
      expect(replay.body.transaction.id).toBe(ids[key])
      expect(replay.body.transaction.status).toBe('confirmed')
    }
  }, 300_000)
})

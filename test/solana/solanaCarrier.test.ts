import {
  type AgentWallet,
  createAgentWallet,
  memoryKeyVault,
  memoryStorage,
  trackTransactions,
} from '@agentwallet/core'
import { createSolanaDevnet, type SolanaDevnet } from '@agentwallet/solana-devnet'
import { address, createSolanaRpcFromTransport, generateKeyPairSigner, type RpcTransport } from '@solana/kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const sol = 1_000_000_000n
let devnet: SolanaDevnet
let aw: AgentWallet
/** While set, the node never gets a `sendTransaction`: the answer is lost (the transaction may or may not be out). */
let dropping = false

beforeAll(async () => {
  devnet = await createSolanaDevnet()
  const transport: RpcTransport = (request) => {
    const { method } = request.payload as { method: string }
    if (dropping && method === 'sendTransaction') return Promise.reject(new Error('connection reset'))
    return devnet.transport(request)
  }
  aw = await createAgentWallet({
    chains: { solana: { family: 'solana', transport, addressBook: devnet.addressBook } },
    defaultChain: 'solana',
    vault: memoryKeyVault(),
    storage: memoryStorage(),
    defaultTenantRules: [],
    // The test drives the tracker's passes; every submitted record is stale at once.
    track: false,
    rebroadcastAfterMs: 0,
  })
})
afterAll(async () => {
  await aw?.close()
  devnet?.close()
})

async function fundedWallet(): Promise<string> {
  const { wallet } = await aw.createWallet({ agentName: `sol-${Math.random()}`, chain: 'solana' })
  await devnet.airdrop(address(wallet.address), sol)
  return wallet.address
}

const recordOf = async (id: string) => (await aw.context.storage.get('transactions', id))!
const lamportsOf = async (owner: string) =>
  (await createSolanaRpcFromTransport(devnet.transport).getBalance(address(owner)).send()).value

describe('the Solana carrier: signed and saved before it is sent, then the chain decides', () => {
  it('saves the wire bytes, signature and lastValidBlockHeight; a lost send is sent again and lands', async () => {
    const wallet = await fundedWallet()
    const to = (await generateKeyPairSigner()).address
    dropping = true
    const { transaction } = await aw.send({ wallet, to, value: '0.2' })
    expect(transaction.status).toBe('submitted')
    const saved = await recordOf(transaction.id)
    expect(saved).toMatchObject({ status: 'submitted', carriedBy: 'solana', hash: transaction.hash })
    expect(saved.status === 'submitted' && 'solana' in saved && saved.solana).toMatchObject({
      wire: expect.any(String),
      lastValidBlockHeight: expect.stringMatching(/^\d+$/),
    })
    // The node never had it: pending (its blockhash lives), nothing moved, still submitted.
    await trackTransactions(aw.context)
    expect((await recordOf(transaction.id)).status).toBe('submitted')
    expect(await lamportsOf(to)).toBe(0n)

    dropping = false
    await trackTransactions(aw.context) // the same bytes again
    await trackTransactions(aw.context) // its landing read
    const confirmed = await recordOf(transaction.id)
    expect(confirmed).toMatchObject({ status: 'confirmed', hash: transaction.hash })
    expect(confirmed.finality === 'pending' || confirmed.finality === 'finalized').toBe(true)
    expect(await lamportsOf(to)).toBe(sol / 5n)
  })

  it('fails a send the chain never saw only once its blockhash expired; the wallet keeps its SOL', async () => {
    const wallet = await fundedWallet()
    const to = (await generateKeyPairSigner()).address
    dropping = true
    const { transaction } = await aw.send({ wallet, to, value: '0.1' })
    await trackTransactions(aw.context)
    expect((await recordOf(transaction.id)).status).toBe('submitted')
    devnet.advanceBlocks(151n)
    dropping = false
    await trackTransactions(aw.context)
    const failed = await recordOf(transaction.id)
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: 'transaction_failed', reason: 'blockhash_expired' },
    })
    expect(await lamportsOf(wallet)).toBe(sol)
    expect(await lamportsOf(to)).toBe(0n)
  })

  it('refuses a send the wallet cannot pay with insufficient_funds, saving nothing', async () => {
    const wallet = await fundedWallet()
    const to = (await generateKeyPairSigner()).address
    await expect(aw.send({ wallet, to, value: '5' })).rejects.toMatchObject({ code: 'insufficient_funds' })
    await expect(aw.send({ wallet, to, value: '1', token: 'USDC' })).rejects.toMatchObject({
      code: 'insufficient_funds',
    })
    const { transactions } = await aw.listHistory({ wallet })
    expect(transactions).toEqual([])
  })
})

import { generateKeyPairSigner } from '@solana/kit'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type SolanaDevnetAddressBook, solanaDevnetTokens } from '../src/index.js'
import { startSolanaDevnet } from './solanaClients.js'

let env: Awaited<ReturnType<typeof startSolanaDevnet>>

beforeAll(async () => {
  env = await startSolanaDevnet()
})
afterAll(() => env.close())

/** A devnet-only method, over plain JSON-RPC (kit's typed RPC knows only the cluster's methods). */
async function call(method: string, params: unknown[]) {
  const response = await fetch(env.server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } }
}

it('serves its address book: the two test mints, the faucet and fixed USD prices', async () => {
  const { result } = await call('agentwallet_addressBook', [])
  const book = result as SolanaDevnetAddressBook
  expect(book.mints.map(({ symbol, decimals }) => [symbol, decimals])).toEqual([
    ['USDC', 6],
    ['DEV', 9],
  ])
  expect(book.prices).toEqual({ 'SOL/USD': '150', 'USDC/USD': '1', 'DEV/USD': '2.5' })
  expect(book.genesisHash).toBe(await env.rpc.getGenesisHash().send())
  for (const mint of book.mints) {
    const { value } = await env.rpc.getAccountInfo(mint.address, { encoding: 'jsonParsed' }).send()
    expect(value?.data).toMatchObject({
      program: 'spl-token',
      parsed: { type: 'mint', info: { decimals: mint.decimals, mintAuthority: book.faucet } },
    })
  }
})

it('mints both test tokens into the owner’s associated token accounts, created when missing', async () => {
  const owner = await generateKeyPairSigner()
  const amounts = { USDC: 1_500_000n, DEV: 3n * 10n ** 9n }
  for (const { symbol } of solanaDevnetTokens) {
    const { result, error } = await call('agentwallet_mintTokens', [
      owner.address,
      symbol,
      Number(amounts[symbol]),
    ])
    expect(error).toBeUndefined()
    expect(result).toMatchObject({ signature: expect.any(String), tokenAccount: expect.any(String) })
  }
  // Again: the account exists now, the amount adds up.
  await env.devnet.mintTokens('USDC', owner.address, 500_000n)

  const { value } = await env.rpc
    .getTokenAccountsByOwner(
      owner.address,
      { programId: env.devnet.addressBook.programs.token },
      { encoding: 'jsonParsed' },
    )
    .send()
  const held = value.map(({ account }) => {
    const { info } = account.data.parsed
    return [info.mint, info.tokenAmount.uiAmountString, info.owner]
  })
  const [usdc, dev] = env.devnet.addressBook.mints
  expect(held.sort()).toEqual(
    [
      [usdc?.address, '2', owner.address],
      [dev?.address, '3', owner.address],
    ].sort(),
  )
  const supply = await env.rpc.getTokenSupply(dev?.address ?? ('' as never)).send()
  expect(supply.value.amount).toBe(amounts.DEV.toString())
})

it('refuses a mint that is not one of its test mints with invalid params', async () => {
  const owner = await generateKeyPairSigner()
  const { error } = await call('agentwallet_mintTokens', [owner.address, 'BONK', 1])
  expect(error?.code).toBe(-32602)
})

it('airdrops SOL through requestAirdrop, a landed transfer from the faucet', async () => {
  const wallet = await generateKeyPairSigner()
  const signature = await env.rpc.requestAirdrop(wallet.address, (10n ** 9n) as never).send()
  const mined = await env.rpc
    .getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
    .send()
  expect(mined?.transaction.message.accountKeys[0]).toBe(env.devnet.addressBook.faucet)
  expect((await env.rpc.getBalance(wallet.address).send()).value).toBe(10n ** 9n)
})

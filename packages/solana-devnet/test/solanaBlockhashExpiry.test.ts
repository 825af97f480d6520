import {
  generateKeyPairSigner,
  isSolanaError,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
} from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { blockhashLifetime } from '../src/index.js'
import { startSolanaDevnet } from './solanaClients.js'

const sol = 1_000_000_000n
let env: Awaited<ReturnType<typeof startSolanaDevnet>>

beforeAll(async () => {
  env = await startSolanaDevnet()
})
afterAll(() => env.close())

it('hands out blockhashes valid until lastValidBlockHeight = height + 150, and refuses a transaction past it', async () => {
  const { rpc, devnet, sign, wire } = env
  const [payer, recipient] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()])
  await devnet.airdrop(payer.address, sol)
  const { value: lifetime } = await rpc.getLatestBlockhash().send()
  const height = await rpc.getBlockHeight().send()
  expect(lifetime.lastValidBlockHeight).toBe(height + blockhashLifetime)
  const transfer = (amount: bigint) =>
    sign(
      payer,
      [getTransferSolInstruction({ source: payer, destination: recipient.address, amount })],
      lifetime,
    )

  // 149 blocks on, a transaction can still land in the next block: the last valid one.
  devnet.advanceBlocks(149n)
  expect((await rpc.isBlockhashValid(lifetime.blockhash).send()).value).toBe(true)
  await rpc.sendTransaction(wire(await transfer(sol / 10n)), { encoding: 'base64' }).send()
  expect(await rpc.getBlockHeight().send()).toBe(lifetime.lastValidBlockHeight)

  // Now the chain is at lastValidBlockHeight: the blockhash is spent.
  expect((await rpc.isBlockhashValid(lifetime.blockhash).send()).value).toBe(false)
  const refused = await rpc
    .sendTransaction(wire(await transfer(sol / 5n)), { encoding: 'base64' })
    .send()
    .catch((error: unknown) => error)
  expect(
    isSolanaError(refused, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE),
  ).toBe(true)
  expect(isSolanaError((refused as Error).cause, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND)).toBe(
    true,
  )

  // Without preflight the node takes the signature, but the transaction never lands.
  const expired = await transfer(sol / 4n)
  const signature = await rpc
    .sendTransaction(wire(expired), { encoding: 'base64', skipPreflight: true })
    .send()
  expect((await rpc.getSignatureStatuses([signature]).send()).value).toEqual([null])
  expect((await rpc.getBalance(recipient.address).send()).value).toBe(sol / 10n)
})

it('answers getFeeForMessage with null once the message’s blockhash has expired', async () => {
  const { rpc, devnet, sign } = env
  const [payer, recipient] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()])
  await devnet.airdrop(payer.address, sol)
  const transaction = await sign(payer, [
    getTransferSolInstruction({ source: payer, destination: recipient.address, amount: sol / 2n }),
  ])
  const message = Buffer.from(transaction.messageBytes).toString('base64') as Parameters<
    typeof rpc.getFeeForMessage
  >[0]
  expect((await rpc.getFeeForMessage(message).send()).value).toBe(5000n)
  devnet.advanceBlocks(blockhashLifetime)
  expect((await rpc.getFeeForMessage(message).send()).value).toBeNull()
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateKeyPairSigner, getSignatureFromTransaction } from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import { afterEach, expect, it } from 'vitest'
import { createSolanaDevnet } from '../src/index.js'
import { startSolanaDevnet } from './solanaClients.js'

const sol = 1_000_000_000n
const dirs: string[] = []
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'solana-devnet-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

it('keeps balances, token balances and history across a restart on the same data dir', async () => {
  const dataDir = freshDir()
  const first = await startSolanaDevnet({ dataDir })
  const [payer, recipient] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()])
  await first.devnet.airdrop(payer.address, 2n * sol)
  const { tokenAccount } = await first.devnet.mintTokens('DEV', recipient.address, 7n * sol)
  const transfer = await first.sign(payer, [
    getTransferSolInstruction({ source: payer, destination: recipient.address, amount: sol }),
  ])
  await first.rpc.sendTransaction(first.wire(transfer), { encoding: 'base64' }).send()
  const signature = getSignatureFromTransaction(transfer)
  const before = {
    payer: (await first.rpc.getBalance(payer.address).send()).value,
    height: await first.rpc.getBlockHeight().send(),
    history: await first.rpc.getSignaturesForAddress(recipient.address).send(),
    transaction: await first.rpc
      .getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
      .send(),
    blockhash: (await first.rpc.getLatestBlockhash().send()).value,
  }
  await first.close()

  const second = await startSolanaDevnet({ dataDir })
  try {
    const { rpc } = second
    expect((await rpc.getBalance(payer.address).send()).value).toBe(before.payer)
    expect((await rpc.getBalance(recipient.address).send()).value).toBe(sol)
    expect((await rpc.getTokenAccountBalance(tokenAccount).send()).value.uiAmountString).toBe('7')
    expect(await rpc.getBlockHeight().send()).toBe(before.height)
    expect(await rpc.getSignaturesForAddress(recipient.address).send()).toEqual(before.history)
    expect(
      await rpc.getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send(),
    ).toEqual(before.transaction)
    // Blockhashes are a function of the height: one handed out before the restart still works.
    expect((await rpc.getLatestBlockhash().send()).value).toEqual(before.blockhash)
    const again = await second.sign(
      payer,
      [getTransferSolInstruction({ source: payer, destination: recipient.address, amount: sol / 2n })],
      before.blockhash,
    )
    await rpc.sendTransaction(second.wire(again), { encoding: 'base64' }).send()
    expect((await rpc.getBalance(recipient.address).send()).value).toBe(sol + sol / 2n)
  } finally {
    await second.close()
  }
})

it('refuses a second devnet on a data dir in use', async () => {
  const dataDir = freshDir()
  const devnet = await createSolanaDevnet({ dataDir })
  try {
    await expect(createSolanaDevnet({ dataDir })).rejects.toMatchObject({ code: 'DATA_DIR_IN_USE' })
  } finally {
    await devnet.close()
  }
})

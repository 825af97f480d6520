// Measures the Solana devnet: start, sequential and pipelined SOL transfers over HTTP, kit's
// send-and-confirm, restart (journal replay). Run: node --import tsx bench/throughput.ts
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  appendTransactionMessageInstruction,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import { createSolanaDevnet } from '../src/index.js'

const dataDir = mkdtempSync(join(tmpdir(), 'solana-devnet-bench-'))
const count = Number(process.argv[2] ?? 500)
try {
  let started = performance.now()
  const devnet = await createSolanaDevnet({ dataDir, slotMs: 400 })
  console.log(`start (fresh): ${(performance.now() - started).toFixed(0)} ms`)
  const server = await devnet.serve({ port: 0 })
  const rpc = createSolanaRpc(server.url)
  const payer = await generateKeyPairSigner()
  await devnet.airdrop(payer.address, 1_000_000n * 10n ** 9n)
  const recipients = await Promise.all(Array.from({ length: 8 }, () => generateKeyPairSigner()))
  const build = async (index: number) => {
    const { value } = await rpc.getLatestBlockhash().send()
    const recipient = recipients[index % recipients.length]?.address ?? payer.address
    const transaction = await pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(value, m),
      (m) =>
        appendTransactionMessageInstruction(
          getTransferSolInstruction({
            source: payer,
            destination: recipient,
            amount: 1_000_000n + BigInt(index),
          }),
          m,
        ),
      (m) => signTransactionMessageWithSigners(m),
    )
    return transaction
  }
  const signed = []
  for (let index = 0; index < count; index++) signed.push(await build(index))
  const latencies: number[] = []
  started = performance.now()
  for (const transaction of signed.slice(0, count / 2)) {
    const t = performance.now()
    await rpc.sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64' }).send()
    latencies.push(performance.now() - t)
  }
  const sequential = performance.now() - started
  latencies.sort((a, b) => a - b)
  console.log(
    `sequential sendTransaction over HTTP (preflight on): ${(count / 2 / (sequential / 1000)).toFixed(0)} tx/s, p50 ${latencies[Math.floor(latencies.length / 2)]?.toFixed(2)} ms`,
  )
  started = performance.now()
  await Promise.all(
    signed
      .slice(count / 2)
      .map((transaction) =>
        rpc.sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64' }).send(),
      ),
  )
  console.log(
    `pipelined sendTransaction over HTTP: ${(count / 2 / ((performance.now() - started) / 1000)).toFixed(0)} tx/s`,
  )

  const sendAndConfirm = sendAndConfirmTransactionFactory({
    rpc,
    rpcSubscriptions: createSolanaRpcSubscriptions(server.wsUrl),
  })
  const confirms: number[] = []
  for (let index = 0; index < 10; index++) {
    const transaction = await build(count + index)
    const t = performance.now()
    await sendAndConfirm(transaction as Parameters<typeof sendAndConfirm>[0], { commitment: 'confirmed' })
    confirms.push(performance.now() - t)
  }
  confirms.sort((a, b) => a - b)
  console.log(
    `kit sendAndConfirmTransaction p50: ${confirms[5]?.toFixed(1)} ms (min ${confirms[0]?.toFixed(1)})`,
  )
  console.log(
    `journal: ${(statSync(join(dataDir, 'solana-journal.jsonl')).size / 1024).toFixed(0)} KiB for ${count + 11} transactions, RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
  )
  await devnet.close()
  started = performance.now()
  const again = await createSolanaDevnet({ dataDir })
  console.log(`restart replaying ${count + 11} transactions: ${(performance.now() - started).toFixed(0)} ms`)
  await again.close()
  process.exit(0)
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}

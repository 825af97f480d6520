import {
  address,
  airdropFactory,
  appendTransactionMessageInstruction,
  blockhash,
  compileTransaction,
  createTransactionMessage,
  generateKeyPairSigner,
  getSignatureFromTransaction,
  type Instruction,
  isSolanaError,
  lamports,
  pipe,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSolanaDevnet } from './solanaClients.js'

const sol = 1_000_000_000n

/** ComputeBudget's SetComputeUnitPrice (discriminator 3, micro-lamports as a little-endian u64). */
function computeUnitPrice(microLamports: bigint): Instruction {
  const data = new Uint8Array(9)
  data[0] = 3
  new DataView(data.buffer).setBigUint64(1, microLamports, true)
  return { programAddress: address('ComputeBudget111111111111111111111111111111'), data }
}
let env: Awaited<ReturnType<typeof startSolanaDevnet>>

beforeAll(async () => {
  env = await startSolanaDevnet()
})
afterAll(() => env.close())

describe('the Solana devnet over HTTP + WebSocket, with @solana/kit', () => {
  it("airdrops with kit's airdropFactory (requestAirdrop, then a signature notification)", async () => {
    const { rpc, rpcSubscriptions } = env
    const wallet = await generateKeyPairSigner()
    const signature = await airdropFactory({ rpc, rpcSubscriptions })({
      recipientAddress: wallet.address,
      lamports: lamports(2n * sol),
      commitment: 'confirmed',
    })
    expect((await rpc.getBalance(wallet.address).send()).value).toBe(2n * sol)
    const { value: statuses } = await rpc.getSignatureStatuses([signature]).send()
    expect(statuses[0]).toMatchObject({ err: null, confirmationStatus: 'finalized' })
  })

  it('sends SOL and answers getTransaction with the fee and pre/post balances the VM produced', async () => {
    const { rpc, devnet, sign, sendAndConfirm } = env
    const [payer, recipient] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()])
    await devnet.airdrop(payer.address, 3n * sol)
    const amount = sol / 2n
    const transaction = await sign(payer, [
      getTransferSolInstruction({ source: payer, destination: recipient.address, amount }),
    ])
    await sendAndConfirm(transaction as Parameters<typeof sendAndConfirm>[0], { commitment: 'confirmed' })
    const signature = getSignatureFromTransaction(transaction)

    const { value: payerBalance } = await rpc.getBalance(payer.address).send()
    const mined = await rpc
      .getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
      .send()
    expect(mined?.meta?.err).toBeNull()
    const meta = mined?.meta
    const keys: readonly string[] = mined?.transaction.message.accountKeys ?? []
    const payerIndex = keys.indexOf(payer.address)
    const recipientIndex = keys.indexOf(recipient.address)
    expect(meta?.preBalances[payerIndex]).toBe(3n * sol)
    expect(meta?.postBalances[payerIndex]).toBe(payerBalance)
    expect(meta?.preBalances[recipientIndex]).toBe(0n)
    expect(meta?.postBalances[recipientIndex]).toBe(amount)
    // The fee reported is what the VM took from the payer beyond the amount.
    expect((meta?.preBalances[payerIndex] ?? 0n) - payerBalance - amount).toBe(meta?.fee)
    expect(meta?.fee).toBe(5000n)
    expect(meta?.logMessages?.length).toBeGreaterThan(0)

    const history = await rpc.getSignaturesForAddress(recipient.address).send()
    expect(history.map((entry) => entry.signature)).toEqual([signature])
    expect(history[0]?.slot).toBe(mined?.slot)
  })

  it('charges the priority fee it reports: getFeeForMessage, the meta and the VM agree', async () => {
    const { rpc, devnet, sign, sendAndConfirm } = env
    const [payer, recipient] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()])
    await devnet.airdrop(payer.address, sol)
    const amount = sol / 10n
    const transaction = await sign(payer, [
      computeUnitPrice(2_000_000n),
      getTransferSolInstruction({ source: payer, destination: recipient.address, amount }),
    ])
    const message = Buffer.from(transaction.messageBytes).toString('base64') as Parameters<
      typeof rpc.getFeeForMessage
    >[0]
    const quoted = (await rpc.getFeeForMessage(message).send()).value
    await sendAndConfirm(transaction as Parameters<typeof sendAndConfirm>[0], { commitment: 'confirmed' })
    const mined = await rpc
      .getTransaction(getSignatureFromTransaction(transaction), {
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
      })
      .send()
    const debited = sol - (await rpc.getBalance(payer.address).send()).value - amount
    expect(mined?.meta?.fee).toBe(debited)
    expect(quoted).toBe(debited)
    // 5,000 a signature + 2 lamports a unit for two builtin instructions' default 3,000 units each.
    expect(debited).toBe(5000n + 12_000n)
    const fees = await rpc.getRecentPrioritizationFees([recipient.address]).send()
    expect(fees).toEqual([{ slot: mined?.slot, prioritizationFee: 2_000_000n }])
  })

  it("transfers an SPL token with transferChecked, creating the recipient's ATA in the same transaction", async () => {
    const { rpc, devnet, sign, sendAndConfirm } = env
    const usdc = devnet.addressBook.mints.find((mint) => mint.symbol === 'USDC')
    if (!usdc) throw new Error('no USDC mint')
    const [sender, recipient] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()])
    await devnet.airdrop(sender.address, sol)
    const { tokenAccount: source } = await devnet.mintTokens('USDC', sender.address, 25_000_000n)
    const [destination] = await findAssociatedTokenPda({
      owner: recipient.address,
      mint: usdc.address,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    })
    const transaction = await sign(sender, [
      getCreateAssociatedTokenIdempotentInstruction({
        payer: sender,
        ata: destination,
        owner: recipient.address,
        mint: usdc.address,
      }),
      getTransferCheckedInstruction({
        source,
        mint: usdc.address,
        destination,
        authority: sender,
        amount: 10_500_000n,
        decimals: 6,
      }),
    ])
    await sendAndConfirm(transaction as Parameters<typeof sendAndConfirm>[0], { commitment: 'confirmed' })

    expect((await rpc.getTokenAccountBalance(destination).send()).value).toMatchObject({
      amount: '10500000',
      decimals: 6,
      uiAmountString: '10.5',
    })
    expect((await rpc.getTokenAccountBalance(source).send()).value.amount).toBe('14500000')
    const mined = await rpc
      .getTransaction(getSignatureFromTransaction(transaction), {
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
      })
      .send()
    const pre = mined?.meta?.preTokenBalances ?? []
    const post = mined?.meta?.postTokenBalances ?? []
    expect(pre.map((balance) => [balance.owner, balance.uiTokenAmount.amount])).toEqual([
      [sender.address, '25000000'],
    ])
    expect(post.map((balance) => [balance.owner, balance.mint, balance.uiTokenAmount.amount]).sort()).toEqual(
      [
        [recipient.address, usdc.address, '10500000'],
        [sender.address, usdc.address, '14500000'],
      ].sort(),
    )
  })

  it('simulates with the post-state of the accounts asked for, and changes nothing', async () => {
    const { rpc, devnet, sign, wire } = env
    const [payer, recipient] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()])
    await devnet.airdrop(payer.address, sol)
    const transaction = await sign(payer, [
      getTransferSolInstruction({ source: payer, destination: recipient.address, amount: sol / 4n }),
    ])
    const { value } = await rpc
      .simulateTransaction(wire(transaction), {
        encoding: 'base64',
        sigVerify: true,
        accounts: { encoding: 'base64', addresses: [payer.address, recipient.address] },
      })
      .send()
    expect(value.err).toBeNull()
    expect(value.accounts.map((account) => account?.lamports)).toEqual([sol - sol / 4n - 5000n, sol / 4n])
    expect(value.unitsConsumed).toBeGreaterThan(0n)
    expect((await rpc.getBalance(recipient.address).send()).value).toBe(0n)
    const { value: statuses } = await rpc
      .getSignatureStatuses([getSignatureFromTransaction(transaction)])
      .send()
    expect(statuses).toEqual([null])
  })

  it('simulates an unsigned message under the latest blockhash (replaceRecentBlockhash), as compute-unit estimates do', async () => {
    const { rpc, devnet, wire } = env
    const [payer, recipient] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()])
    await devnet.airdrop(payer.address, sol)
    const unsigned = compileTransaction(
      pipe(
        createTransactionMessage({ version: 0 }),
        (message) => setTransactionMessageFeePayer(payer.address, message),
        (message) =>
          setTransactionMessageLifetimeUsingBlockhash(
            { blockhash: blockhash('11111111111111111111111111111111'), lastValidBlockHeight: 0n },
            message,
          ),
        (message) =>
          appendTransactionMessageInstruction(
            getTransferSolInstruction({ source: payer, destination: recipient.address, amount: sol / 2n }),
            message,
          ),
      ),
    )
    const { value } = await rpc
      .simulateTransaction(wire(unsigned as Parameters<typeof wire>[0]), {
        encoding: 'base64',
        replaceRecentBlockhash: true,
        sigVerify: false,
      })
      .send()
    expect(value.err).toBeNull()
    expect(value.unitsConsumed).toBe(150n)
    expect(value.replacementBlockhash).toEqual((await rpc.getLatestBlockhash().send()).value)
    const signed = await rpc
      .simulateTransaction(wire(unsigned as Parameters<typeof wire>[0]), {
        encoding: 'base64',
        sigVerify: true,
      })
      .send()
      .catch((error: unknown) => error)
    // Its own (made-up) blockhash is unknown to the chain.
    expect(signed).toMatchObject({ value: { err: 'BlockhashNotFound' } })
  })

  it('refuses a failing transaction at preflight, and lands it with its error when preflight is skipped', async () => {
    const { rpc, devnet, sign, wire } = env
    const [payer, recipient] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()])
    await devnet.airdrop(payer.address, sol)
    const transaction = await sign(payer, [
      getTransferSolInstruction({ source: payer, destination: recipient.address, amount: 2n * sol }),
    ])
    const refused = await rpc
      .sendTransaction(wire(transaction), { encoding: 'base64' })
      .send()
      .catch((error: unknown) => error)
    expect(
      isSolanaError(refused, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE),
    ).toBe(true)
    expect(isSolanaError((refused as Error).cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)).toBe(true)
    expect((await rpc.getBalance(payer.address).send()).value).toBe(sol)

    const signature = await rpc
      .sendTransaction(wire(transaction), { encoding: 'base64', skipPreflight: true })
      .send()
    const { value: statuses } = await rpc.getSignatureStatuses([signature]).send()
    expect(statuses[0]?.err).toEqual({ InstructionError: [0n, { Custom: 1n }] })
    // A transaction that failed in its program still pays its fee, as on a cluster.
    expect((await rpc.getBalance(payer.address).send()).value).toBe(sol - 5000n)
    expect((await rpc.getBalance(recipient.address).send()).value).toBe(0n)
  })
})

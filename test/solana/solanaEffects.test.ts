import {
  type Effect,
  memoryKeyVault,
  predictSolanaEffects,
  signSolanaTransaction,
  solanaChainHandle,
  solanaLanding,
  solanaSendInstructions,
  vaultTransactionSigner,
} from '@agentwallet/core'
import { createSolanaDevnet, type SolanaDevnet } from '@agentwallet/solana-devnet'
import {
  address,
  type Base64EncodedWireTransaction,
  generateKeyPairSigner,
  type Instruction,
  type Signature,
  type TransactionSigner,
} from '@solana/kit'
import {
  AuthorityType,
  findAssociatedTokenPda,
  getApproveInstruction,
  getRevokeInstruction,
  getSetAuthorityInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const sol = 1_000_000_000n
let devnet: SolanaDevnet
let chain: ReturnType<typeof solanaChainHandle>

beforeAll(async () => {
  devnet = await createSolanaDevnet()
  chain = solanaChainHandle('solana', {
    family: 'solana',
    transport: devnet.transport,
    addressBook: devnet.addressBook,
  })
})
afterAll(() => devnet?.close())

const usdc = () => devnet.addressBook.mints.find((mint) => mint.symbol === 'USDC')!

/** A wallet whose Ed25519 key is in a vault, funded with `lamports` (and `usdcUnits` of USDC). */
async function vaultWallet(lamports: bigint, usdcUnits = 0n): Promise<TransactionSigner> {
  const vault = memoryKeyVault()
  const keys = vault.ed25519!
  const signer = vaultTransactionSigner(await keys.getSigner(await keys.createKey()))
  await devnet.airdrop(signer.address, lamports)
  if (usdcUnits > 0n) await devnet.mintTokens('USDC', signer.address, usdcUnits)
  return signer
}

async function fresh(): Promise<string> {
  return (await generateKeyPairSigner()).address
}

async function sign(payer: TransactionSigner, instructions: readonly Instruction[]) {
  return signSolanaTransaction(chain, payer, instructions)
}

async function send(wire: string, skipPreflight = false): Promise<string> {
  return chain.rpc
    .sendTransaction(wire as Base64EncodedWireTransaction, { encoding: 'base64', skipPreflight })
    .send()
}

/** What the landed transaction did to `owner`, read back from its meta: SOL (fee added back for the payer) and USDC. */
async function readBack(signature: string, owner: string, payer: boolean) {
  const landed = await chain.rpc
    .getTransaction(signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
    .send()
  const meta = landed!.meta!
  const keys = landed!.transaction.message.accountKeys.map(String)
  const index = keys.indexOf(owner)
  const lamports =
    index < 0 ? 0n : meta.postBalances[index]! - meta.preBalances[index]! + (payer ? meta.fee : 0n)
  const tokenOf = (balances: typeof meta.preTokenBalances) =>
    BigInt(
      balances?.find((entry) => entry.owner === owner && entry.mint === usdc().address)?.uiTokenAmount
        .amount ?? '0',
    )
  return { lamports, usdc: tokenOf(meta.postTokenBalances) - tokenOf(meta.preTokenBalances) }
}

/** The balance change the effects predict for `asset` ('native' or a mint). */
function netOf(effects: readonly Effect[], asset: string): bigint {
  return effects
    .filter((effect) => effect.asset.address === asset && (effect.kind === 'out' || effect.kind === 'in'))
    .reduce((sum, effect) => sum + (effect.kind === 'out' ? -effect.amount : effect.amount), 0n)
}

describe('SOL and SPL sends signed by a vault key: effects predicted, then read back from the chain', () => {
  it('a SOL send: one out of SOL to the recipient, exactly the lamports the chain moved', async () => {
    const payer = await vaultWallet(2n * sol)
    const to = await fresh()
    const instructions = await solanaSendInstructions(chain, payer, { to, amount: sol / 2n })
    const signed = await sign(payer, instructions)
    const effects = await predictSolanaEffects(chain, payer.address, instructions, signed)
    expect(effects).toMatchObject({ status: 'known', source: 'simulated' })
    if (effects.status !== 'known') return
    expect(effects.effects).toEqual([
      expect.objectContaining({ kind: 'out', amount: sol / 2n, counterparty: to }),
    ])
    expect(await send(signed.wire)).toBe(signed.signature)
    const landing = await solanaLanding(chain, signed.signature, signed.lastValidBlockHeight)
    expect(landing).toMatchObject({ state: 'landed', status: 'confirmed' })
    const [sender, recipient] = await Promise.all([
      readBack(signed.signature, payer.address, true),
      readBack(signed.signature, to, false),
    ])
    expect(sender.lamports).toBe(netOf(effects.effects, 'native'))
    expect(recipient.lamports).toBe(sol / 2n)
  })

  it('an SPL send to a fresh owner creates its token account, paid by the wallet; the next send does not', async () => {
    const payer = await vaultWallet(sol, 40_000_000n)
    const to = await fresh()
    const mint = usdc()
    const first = await solanaSendInstructions(chain, payer, { to, amount: 12_500_000n, mint })
    expect(first).toHaveLength(2)
    const signed = await sign(payer, first)
    const effects = await predictSolanaEffects(chain, payer.address, first, signed)
    expect(effects.status).toBe('known')
    if (effects.status !== 'known') return
    expect(effects.effects).toEqual([
      expect.objectContaining({
        kind: 'out',
        asset: expect.objectContaining({ standard: 'native' }),
        counterparty: to,
      }),
      expect.objectContaining({
        kind: 'out',
        asset: expect.objectContaining({
          standard: 'spl',
          address: mint.address,
          symbol: 'USDC',
          decimals: 6,
        }),
        amount: 12_500_000n,
        counterparty: to,
      }),
    ])
    await send(signed.wire)
    expect(await solanaLanding(chain, signed.signature, signed.lastValidBlockHeight)).toMatchObject({
      state: 'landed',
      status: 'confirmed',
    })
    const [sender, recipient] = await Promise.all([
      readBack(signed.signature, payer.address, true),
      readBack(signed.signature, to, false),
    ])
    expect(sender.lamports).toBe(netOf(effects.effects, 'native'))
    expect(sender.usdc).toBe(netOf(effects.effects, mint.address))
    expect(recipient.usdc).toBe(12_500_000n)

    const again = await solanaSendInstructions(chain, payer, { to, amount: 1n, mint })
    expect(again).toHaveLength(1)
  })
})

describe('decoded grants, unknown programs and failed simulations', () => {
  async function tokenAccountOf(owner: string) {
    const [account] = await findAssociatedTokenPda({
      owner: address(owner),
      mint: address(usdc().address),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    })
    return account
  }

  it('approve is a grant to the delegate (unlimited at the u64 maximum), revoke a revoke, setAuthority an unlimited grant', async () => {
    const payer = await vaultWallet(sol, 5_000_000n)
    const [delegate, newOwner] = await Promise.all([fresh(), fresh()])
    const source = await tokenAccountOf(payer.address)
    const predict = async (instruction: Instruction) => {
      const signed = await sign(payer, [instruction])
      return predictSolanaEffects(chain, payer.address, [instruction], signed)
    }
    const approve = (amount: bigint) =>
      getApproveInstruction({ source, delegate: address(delegate), owner: payer, amount })
    expect(await predict(approve(3_000_000n))).toMatchObject({
      status: 'known',
      effects: [{ kind: 'grant', amount: 3_000_000n, counterparty: delegate, asset: { symbol: 'USDC' } }],
    })
    const unlimited = await predict(approve(2n ** 64n - 1n))
    expect(unlimited).toMatchObject({ status: 'known', effects: [{ kind: 'grant', unlimited: true }] })
    expect(await predict(getRevokeInstruction({ source, owner: payer }))).toMatchObject({
      status: 'known',
      effects: [{ kind: 'revoke', asset: { symbol: 'USDC' } }],
    })
    const handover = getSetAuthorityInstruction({
      owned: source,
      owner: payer,
      authorityType: AuthorityType.AccountOwner,
      newAuthority: address(newOwner),
    })
    expect(await predict(handover)).toMatchObject({
      status: 'known',
      effects: [{ kind: 'grant', unlimited: true, counterparty: newOwner }],
    })
  })

  it('an instruction of a program it cannot read is unknown, never "moves nothing"', async () => {
    const payer = await vaultWallet(sol)
    const memo: Instruction = {
      programAddress: address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'),
      data: new TextEncoder().encode('hello'),
    }
    const signed = await sign(payer, [memo])
    expect(await predictSolanaEffects(chain, payer.address, [memo], signed)).toMatchObject({
      status: 'unknown',
    })
  })

  it('a send beyond the balance simulates as reverted', async () => {
    const payer = await vaultWallet(sol / 100n)
    const instructions = await solanaSendInstructions(chain, payer, { to: await fresh(), amount: sol })
    const signed = await sign(payer, instructions)
    expect(await predictSolanaEffects(chain, payer.address, instructions, signed)).toMatchObject({
      status: 'reverted',
      source: 'simulated',
    })
  })
})

describe('ledger truth: a dropped transaction is pending while its blockhash lives, failed only once it expired', () => {
  it('a transaction the node dropped (its blockhash expired, sent without preflight) goes pending → expired', async () => {
    const payer = await vaultWallet(sol)
    const instructions = await solanaSendInstructions(chain, payer, { to: await fresh(), amount: sol / 10n })
    const signed = await sign(payer, instructions)
    // Not sent yet: unknown to the chain, but its blockhash is valid, so it may still land.
    expect(await solanaLanding(chain, signed.signature, signed.lastValidBlockHeight)).toMatchObject({
      state: 'pending',
    })
    devnet.advanceBlocks(151n)
    expect(await send(signed.wire, true)).toBe(signed.signature)
    expect(await solanaLanding(chain, signed.signature, signed.lastValidBlockHeight)).toMatchObject({
      state: 'expired',
    })
    expect((await chain.rpc.getBalance(payer.address).send()).value).toBe(sol)
  })

  it('a transaction sent while pending lands: rebroadcasting the same bytes is harmless', async () => {
    const payer = await vaultWallet(sol)
    const to = await fresh()
    const signed = await sign(payer, await solanaSendInstructions(chain, payer, { to, amount: sol / 4n }))
    await send(signed.wire)
    await send(signed.wire, true)
    expect(await solanaLanding(chain, signed.signature, signed.lastValidBlockHeight)).toMatchObject({
      state: 'landed',
      status: 'confirmed',
    })
    expect((await chain.rpc.getBalance(address(to)).send()).value).toBe(sol / 4n)
  })
})

import { type Address, type Instruction, isSome } from '@solana/kit'
import { parseSystemInstruction, SYSTEM_PROGRAM_ADDRESS, SystemInstruction } from '@solana-program/system'
import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  parseTokenInstruction,
  TOKEN_PROGRAM_ADDRESS,
  TokenInstruction,
} from '@solana-program/token'
import type { Address as EvmAddress } from 'viem'
import type { SolanaMint } from '../chain/types.js'
import type { Effect, EffectAsset } from '../effects/types.js'

/** The accounts an instruction touches, as the decoder needs them: a token account's mint and owner. */
export type TokenAccountFacts = { mint: string; owner: string; lamports: bigint }

export type DecodeContext = {
  wallet: string
  /** The chain's known mints (symbol, decimals); others are named by their mint. */
  mints: readonly SolanaMint[]
  /** Mint decimals of mints the address book does not know, read from the chain. */
  decimalsOf(mint: string): Promise<number>
  /** The token account at `address` before the transaction; undefined when none exists. */
  tokenAccount(address: string): Promise<TokenAccountFacts | undefined>
  /** Lamports a new associated token account holds (rent exemption of 165 bytes). */
  tokenAccountRent(): Promise<bigint>
}

/** Decoded effects, or why the instructions cannot be read (an unknown program: never "moves nothing"). */
export type Decoded = { effects: Effect[] } | { unknown: string }

const sol: EffectAsset = { address: 'native', symbol: 'SOL', decimals: 9, standard: 'native' }
const u64Max = 2n ** 64n - 1n

/**
 * What instructions do to the wallet's assets, read from their data: a System transfer (SOL out), an
 * SPL transfer or transferChecked (tokens out), approve (a grant to the delegate; the u64 maximum is
 * unlimited), revoke, closeAccount (the account's lamports out, unless to the wallet itself),
 * setAuthority on a token account (an unlimited grant to the new authority: it owns the tokens), and an
 * associated-token-account creation the wallet pays (its rent out to the account's owner).
 * @example const decoded = await decodeSolanaEffects(instructions, context)
 */
export async function decodeSolanaEffects(
  instructions: readonly Instruction[],
  context: DecodeContext,
): Promise<Decoded> {
  const effects: Effect[] = []
  // Associated token accounts these instructions create, by address: their owner is the recipient.
  const created = new Map<string, string>()
  for (const instruction of instructions) {
    const decoded = await decodeOne(instruction, { ...context, created })
    if ('unknown' in decoded) return decoded
    effects.push(...decoded.effects)
  }
  return { effects }
}

type Decoding = DecodeContext & { created: Map<string, string> }

async function decodeOne(instruction: Instruction, context: Decoding): Promise<Decoded> {
  const data = instruction.data
  if (!data) return { unknown: `an instruction of ${instruction.programAddress} without data` }
  const withData = { ...instruction, data }
  if (instruction.programAddress === SYSTEM_PROGRAM_ADDRESS) {
    const parsed = parseSystemInstruction(withData)
    if (parsed.instructionType !== SystemInstruction.TransferSol)
      return { unknown: `System instruction ${SystemInstruction[parsed.instructionType]}` }
    const { source, destination } = parsed.accounts
    if (source?.address !== context.wallet) return { effects: [] }
    return { effects: [effect('out', sol, parsed.data.amount, destination!.address)] }
  }
  if (instruction.programAddress === ASSOCIATED_TOKEN_PROGRAM_ADDRESS) {
    // create / createIdempotent: payer, ata, owner, mint, system, token. Idempotent on an existing one: no rent.
    const [payer, ata, owner] = instruction.accounts ?? []
    if (payer?.address !== context.wallet || !ata || !owner) return { effects: [] }
    if (await context.tokenAccount(ata.address)) return { effects: [] }
    context.created.set(ata.address, owner.address)
    return { effects: [effect('out', sol, await context.tokenAccountRent(), owner.address)] }
  }
  if (instruction.programAddress === TOKEN_PROGRAM_ADDRESS) return decodeToken(withData, context)
  return { unknown: `an instruction of program ${instruction.programAddress}` }
}

async function decodeToken(
  instruction: Instruction & { data: NonNullable<Instruction['data']> },
  context: Decoding,
): Promise<Decoded> {
  const parsed = parseTokenInstruction(instruction)
  const authorityIsWallet = (meta: { address: Address } | undefined) => meta?.address === context.wallet
  switch (parsed.instructionType) {
    case TokenInstruction.Transfer:
    case TokenInstruction.TransferChecked: {
      const { source, destination, authority } = parsed.accounts
      if (!authorityIsWallet(authority)) return { effects: [] }
      const [from, to] = await Promise.all([
        context.tokenAccount(source.address),
        context.tokenAccount(destination.address),
      ])
      if (!from) return { unknown: `transfer from ${source.address}, not a token account` }
      const asset = await tokenAsset(from.mint, context)
      // The recipient is the destination account's owner (of one created above: the owner it was made for).
      const recipient = to?.owner ?? context.created.get(destination.address)
      if (!recipient) return { unknown: `transfer to ${destination.address}, not a token account` }
      return { effects: [effect('out', asset, parsed.data.amount, recipient)] }
    }
    case TokenInstruction.Approve:
    case TokenInstruction.ApproveChecked: {
      const { source, delegate, owner } = parsed.accounts
      if (!authorityIsWallet(owner)) return { effects: [] }
      const account = await context.tokenAccount(source.address)
      if (!account) return { unknown: `approve on ${source.address}, not a token account` }
      const { amount } = parsed.data
      const grant = effect('grant', await tokenAsset(account.mint, context), amount, delegate.address)
      return { effects: [amount === u64Max ? { ...grant, unlimited: true } : grant] }
    }
    case TokenInstruction.Revoke: {
      const { source, owner } = parsed.accounts
      if (!authorityIsWallet(owner)) return { effects: [] }
      const account = await context.tokenAccount(source.address)
      if (!account) return { unknown: `revoke on ${source.address}, not a token account` }
      return { effects: [effect('revoke', await tokenAsset(account.mint, context), 0n, source.address)] }
    }
    case TokenInstruction.CloseAccount: {
      const { account, destination, owner } = parsed.accounts
      if (!authorityIsWallet(owner) || destination.address === context.wallet) return { effects: [] }
      const closed = await context.tokenAccount(account.address)
      if (!closed) return { unknown: `closeAccount on ${account.address}, not a token account` }
      return { effects: [effect('out', sol, closed.lamports, destination.address)] }
    }
    case TokenInstruction.SetAuthority: {
      const { owned, owner } = parsed.accounts
      if (!authorityIsWallet(owner)) return { effects: [] }
      const account = await context.tokenAccount(owned.address)
      // A mint's authority is no asset of the wallet's balance; anything else is not read here.
      if (!account) return { unknown: `setAuthority on ${owned.address}, not a token account` }
      const { newAuthority } = parsed.data
      const to = isSome(newAuthority) ? newAuthority.value : owned.address
      const asset = await tokenAsset(account.mint, context)
      return { effects: [{ ...effect('grant', asset, 0n, to), unlimited: true }] }
    }
    default:
      return { unknown: `Token instruction ${TokenInstruction[parsed.instructionType]}` }
  }
}

async function tokenAsset(mint: string, context: DecodeContext): Promise<EffectAsset> {
  const known = context.mints.find((entry) => entry.address === mint)
  const decimals = known?.decimals ?? (await context.decimalsOf(mint))
  return { address: mint as EvmAddress, symbol: known?.symbol ?? mint, decimals, standard: 'spl' }
}

/** Solana addresses ride in `Effect.counterparty` as they are (base58). */
function effect(kind: Effect['kind'], asset: EffectAsset, amount: bigint, counterparty: string): Effect {
  return { kind, asset, amount, counterparty: counterparty as EvmAddress }
}

import { type Address, address } from '@solana/kit'
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import type { SolanaChainHandle, SolanaMint } from '../chain/types.js'
import { formatAmount } from '../utils/amounts.js'
import { toSolanaChainError } from './toSolanaChainError.js'

/** Token-2022 (its accounts start with the SPL Token layout, so both read the same). */
const token2022Program = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb')

export type SolanaBalance = {
  lamports: bigint
  /** By mint: the chain's known mints (0 when none is held) and every other mint the owner holds. */
  tokens: { mint: string; symbol: string; decimals: number; raw: bigint }[]
}

/**
 * SOL and SPL balances of `owner`: `getBalance` and `getTokenAccountsByOwner` under both token
 * programs, summed by mint.
 * @example const { lamports, tokens } = await readSolanaBalance(chain, wallet.address)
 */
export async function readSolanaBalance(chain: SolanaChainHandle, owner: string): Promise<SolanaBalance> {
  try {
    const [{ value: lamports }, ...held] = await Promise.all([
      chain.rpc.getBalance(address(owner)).send(),
      ...[TOKEN_PROGRAM_ADDRESS, token2022Program].map((programId) =>
        chain.rpc.getTokenAccountsByOwner(address(owner), { programId }, { encoding: 'jsonParsed' }).send(),
      ),
    ])
    const byMint = new Map<string, { mint: string; symbol: string; decimals: number; raw: bigint }>()
    for (const mint of chain.addressBook.mints ?? []) byMint.set(mint.address, { ...entryOf(mint), raw: 0n })
    for (const { account } of held.flatMap((answer) => answer.value)) {
      const { mint, tokenAmount } = account.data.parsed.info
      const known = byMint.get(mint)
      const raw = BigInt(tokenAmount.amount)
      if (known) known.raw += raw
      else byMint.set(mint, { mint, symbol: mint, decimals: tokenAmount.decimals, raw })
    }
    return { lamports, tokens: [...byMint.values()] }
  } catch (error) {
    throw toSolanaChainError(error, chain.name)
  }
}

function entryOf(mint: SolanaMint): { mint: string; symbol: string; decimals: number } {
  return { mint: mint.address, symbol: mint.symbol, decimals: mint.decimals }
}

/** A balance as the API shows it (the EVM shape: `eth` and `wei` are the native coin, here SOL and lamports). */
export function formatSolanaBalance(chainName: string, { lamports, tokens }: SolanaBalance) {
  return {
    chain: chainName,
    eth: formatAmount(lamports, 9),
    wei: lamports.toString(),
    tokens: tokens.map(({ mint, symbol, decimals, raw }) => ({
      address: mint as Address as `0x${string}`,
      symbol,
      decimals,
      balance: formatAmount(raw, decimals),
      raw: raw.toString(),
    })),
  }
}

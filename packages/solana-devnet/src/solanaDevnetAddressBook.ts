import type { Address } from '@solana/kit'
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system'
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import { solanaDevnetGenesisHash } from './blockhashAt.js'
import type { Genesis, SolanaDevnetMint } from './createGenesis.js'
import { formatUiAmount } from './formatUiAmount.js'
import { solanaDevnetPrices } from './solanaDevnetTokens.js'
import { TOKEN_2022_PROGRAM_ADDRESS } from './tokenPrograms.js'

/**
 * What a wallet service needs to know about the devnet besides the RPC: its test mints, the faucet and
 * fixed USD prices (decimal strings, e.g. `'SOL/USD': '150'`). Served as `agentwallet_addressBook`.
 */
export type SolanaDevnetAddressBook = {
  genesisHash: string
  faucet: Address
  mints: SolanaDevnetMint[]
  prices: Record<keyof typeof solanaDevnetPrices, string>
  programs: { system: Address; token: Address; token2022: Address; associatedToken: Address }
}

/** The address book of a devnet made from `genesis`. */
export function solanaDevnetAddressBook({ faucet, mints }: Genesis): SolanaDevnetAddressBook {
  const entries = Object.entries(solanaDevnetPrices).map(([pair, price]) => [pair, formatUiAmount(price, 8)])
  return {
    genesisHash: solanaDevnetGenesisHash,
    faucet: faucet.address,
    mints: mints.map((mint) => ({ ...mint })),
    prices: Object.fromEntries(entries) as SolanaDevnetAddressBook['prices'],
    programs: {
      system: SYSTEM_PROGRAM_ADDRESS,
      token: TOKEN_PROGRAM_ADDRESS,
      token2022: TOKEN_2022_PROGRAM_ADDRESS,
      associatedToken: ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
    },
  }
}

/**
 * The devnet's test mints (SPL Token program), made at genesis with the faucet as mint authority:
 * one with 6 decimals like USDC, one with 9 like most Solana tokens.
 */
export const solanaDevnetTokens = [
  { symbol: 'USDC', name: 'USD Coin (devnet)', decimals: 6 },
  { symbol: 'DEV', name: 'Devnet Token', decimals: 9 },
] as const

export type SolanaDevnetTokenSymbol = (typeof solanaDevnetTokens)[number]['symbol']

/**
 * Fixed USD prices, 8 decimals like the EVM devnet's `devnetPrices` (Chainlink's USD feeds). The devnet
 * has no oracle program: a service reads them from the address book (`agentwallet_addressBook`).
 */
export const solanaDevnetPrices = {
  'SOL/USD': 150_00000000n,
  'USDC/USD': 1_00000000n,
  'DEV/USD': 2_50000000n,
} as const

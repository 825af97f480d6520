import { type Address, type KeyPairSigner, lamports, none, some } from '@solana/kit'
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system'
import { getMintEncoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import { LiteSVM } from 'litesvm'
import { devnetSigner } from './devnetSigner.js'
import { solanaDevnetTokens } from './solanaDevnetTokens.js'

/** What the faucet holds at genesis: 500 million SOL, in lamports. */
const faucetLamports = 500_000_000n * 1_000_000_000n
const mintSize = 82n

export type SolanaDevnetMint = {
  address: Address
  symbol: string
  name: string
  decimals: number
  programId: Address
}

export type Genesis = { svm: LiteSVM; faucet: KeyPairSigner; mints: SolanaDevnetMint[] }

/**
 * A fresh LiteSVM with the standard programs (System, SPL Token, Token-2022, Associated Token, Memo),
 * the faucet funded and the test mints written as genesis accounts (what `solana-test-validator
 * --account` does), the faucet their mint authority. LiteSVM's own blockhash check is off: the devnet
 * checks blockhashes itself, over a window of 150 blocks like a real cluster.
 */
export async function createGenesis(): Promise<Genesis> {
  const svm = new LiteSVM().withBlockhashCheck(false)
  const faucet = await devnetSigner('faucet')
  svm.setAccount({
    address: faucet.address,
    data: new Uint8Array(),
    executable: false,
    lamports: lamports(faucetLamports),
    programAddress: SYSTEM_PROGRAM_ADDRESS,
    space: 0n,
  })
  const mints: SolanaDevnetMint[] = []
  for (const { symbol, name, decimals } of solanaDevnetTokens) {
    const { address } = await devnetSigner(`mint ${symbol}`)
    const data = getMintEncoder().encode({
      mintAuthority: some(faucet.address),
      supply: 0n,
      decimals,
      isInitialized: true,
      freezeAuthority: none(),
    })
    svm.setAccount({
      address,
      data: new Uint8Array(data),
      executable: false,
      lamports: lamports(svm.minimumBalanceForRentExemption(mintSize)),
      programAddress: TOKEN_PROGRAM_ADDRESS,
      space: mintSize,
    })
    mints.push({ address, symbol, name, decimals, programId: TOKEN_PROGRAM_ADDRESS })
  }
  return { svm, faucet, mints }
}

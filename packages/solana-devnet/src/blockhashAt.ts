import { createHash } from 'node:crypto'
import { type Blockhash, getBase58Decoder } from '@solana/kit'

/** The genesis hash every embedded devnet answers `getGenesisHash` with (the chain's identity). */
export const solanaDevnetGenesisHash = blockhashAt(-1n)

/**
 * The blockhash of block `height`: a hash of the height, so a restart that replays the journal hands
 * out the same blockhashes, and a transaction signed before the restart is still valid after it.
 */
export function blockhashAt(height: bigint): Blockhash {
  const digest = createHash('sha256').update(`agentwallet solana devnet block ${height}`).digest()
  return getBase58Decoder().decode(digest) as Blockhash
}

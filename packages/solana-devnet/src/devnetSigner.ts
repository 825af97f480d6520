import { createHash } from 'node:crypto'
import { createKeyPairSignerFromPrivateKeyBytes, type KeyPairSigner } from '@solana/kit'

/**
 * A key pair every Solana devnet shares, derived from a public label (like the EVM devnet's test
 * mnemonic): the same faucet and mint addresses on every machine and after every restart.
 * @example const faucet = await devnetSigner('faucet')
 */
export function devnetSigner(label: string): Promise<KeyPairSigner> {
  const seed = createHash('sha256').update(`agentwallet solana devnet: ${label}`).digest()
  return createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(seed))
}

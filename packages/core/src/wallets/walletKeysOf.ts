import type { Address } from 'viem'
import * as z from 'zod/mini'
import { UnsupportedChainFamilyError } from '../errors/errors.js'
import { parseInput } from '../schemas/parseInput.js'
import { hexDataSchema } from '../schemas/primitives.js'
import { parseSolanaSecretKey } from '../vault/parseSolanaSecretKey.js'
import type { ChainFamily, KeyVault, PreparedKey } from '../vault/types.js'

/** The vault keys a wallet of one family is made from: secp256k1 for `evm`, Ed25519 for `solana`. */
export type WalletKeys = {
  prepareKey?: (() => Promise<PreparedKey>) | undefined
  createKey(): Promise<Address>
  /** Stores a secret key given as text in the family's export formats; answers its address. */
  importKey(text: string): Promise<Address>
}

/** An EVM private key: 0x and 32 bytes of hex. */
const evmPrivateKeySchema = hexDataSchema.check(
  z.refine((key) => key.length === 66, 'privateKey must be 32 bytes of hex (0x + 64 hex characters)'),
)

/**
 * The vault's keys for wallets of `family`, chosen once: a Solana wallet needs a vault with Ed25519
 * keys (`unsupported_chain_family` otherwise). A Solana address is base58; it travels in the wallet
 * record's `address` as it is (typed `Address` there: no EVM code is handed a Solana wallet).
 * @example const keys = walletKeysOf(ctx.vault, 'solana'); const address = await keys.createKey()
 */
export function walletKeysOf(vault: KeyVault, family: ChainFamily): WalletKeys {
  if (family === 'evm') {
    return {
      prepareKey: vault.prepareKey?.bind(vault),
      createKey: () => vault.createKey(),
      importKey: (text) => vault.importKey(parseInput(evmPrivateKeySchema, text)),
    }
  }
  const ed25519 = vault.ed25519
  if (!ed25519) {
    throw new UnsupportedChainFamilyError(
      'This key vault holds no Ed25519 keys: it cannot make Solana wallets',
      {
        details: { family, reason: 'vault_without_ed25519' },
      },
    )
  }
  const prepare = ed25519.prepareKey?.bind(ed25519)
  return {
    prepareKey: prepare && (async () => (await prepare()) as PreparedKey),
    createKey: async () => (await ed25519.createKey()) as Address,
    async importKey(text) {
      const { secretKey } = parseSolanaSecretKey(text)
      try {
        return (await ed25519.importKey(secretKey)) as Address
      } finally {
        secretKey.fill(0)
      }
    },
  }
}

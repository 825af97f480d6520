import { hkdfSync } from 'node:crypto'
import { mnemonicToSeed, validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import type { Address, LocalAccount } from 'viem'
import { HDKey, hdKeyToAccount } from 'viem/accounts'
import { BaseError } from '../errors/baseError.js'
import { keyFingerprint } from './masterKey.js'

/** Keys derived from one BIP-39 phrase along m/44'/60'/0'/0/index, as MetaMask and anvil do. */
export type HdWallet = {
  account(index: number): LocalAccount
  address(index: number): Address
  privateKey(index: number): Uint8Array
  /** A key derived from the seed (HKDF) that seals keys imported into an HD vault. */
  importKey: Uint8Array
  /** Fingerprint of `importKey`, stored in records to recognize another mnemonic. */
  keyId: string
}

/**
 * Checks a BIP-39 English mnemonic; throws `validation_failed` without echoing it.
 * @example assertMnemonic('test test test test test test test test test test test junk')
 */
export const assertMnemonic = (mnemonic: string): void => {
  if (typeof mnemonic !== 'string' || !validateMnemonic(mnemonic.trim(), wordlist)) {
    throw new BaseError('validation_failed', 'Invalid BIP-39 mnemonic')
  }
}

/**
 * Derives the HD wallet of a mnemonic (PBKDF2 runs once here, not per signature).
 * @example const hd = await hdWalletFromMnemonic(phrase); hd.address(0)
 */
export const hdWalletFromMnemonic = async (mnemonic: string, passphrase = ''): Promise<HdWallet> => {
  assertMnemonic(mnemonic)
  const seed = await mnemonicToSeed(mnemonic.trim(), passphrase)
  const root = HDKey.fromMasterSeed(seed)
  const importKey = new Uint8Array(hkdfSync('sha256', seed, 'agentwallet/hd-import-key/v1', '', 32))
  seed.fill(0)
  const account = (index: number) => hdKeyToAccount(root, { addressIndex: index })
  return {
    account,
    address: (index) => account(index).address,
    privateKey(index) {
      const key = root.derive(`m/44'/60'/0'/0/${index}`).privateKey
      if (!key)
        throw new BaseError('vault_error', 'HD derivation yielded no private key', { details: { index } })
      return key
    },
    importKey,
    keyId: keyFingerprint(importKey),
  }
}

import type { SealedBox } from './aesGcm.js'

/**
 * A key sealed in an envelope: the private key encrypted with a per-wallet data key, the data key
 * wrapped by the vault's wrapping key. Both ciphertexts bind the lowercase address as associated data.
 */
export type EnvelopeKeyRecord = {
  version: 1
  kind: 'envelope'
  /** The key's curve: absent for secp256k1 (every record written before Ed25519 keys came). */
  algorithm?: 'ed25519' | undefined
  /** The id the record is filed under: the lowercase `0x` address, or `ed25519:` and the public key in hex. */
  address: string
  /** Fingerprint of the wrapping key (see keyFingerprint); tells a wrong key from a tampered record. */
  keyId: string
  wrappedDataKey: SealedBox
  encryptedKey: SealedBox
}

/** A key derived from the vault's mnemonic: only its index is stored, no key material. */
export type HdKeyRecord = {
  version: 1
  kind: 'hd'
  address: string
  /** Fingerprint of the key derived from the seed, to recognize a different mnemonic. */
  keyId: string
  /** Address index in m/44'/60'/0'/0/index. */
  index: number
}

/** What the local vault persists per wallet, keyed by lowercase address. */
export type LocalKeyRecord = EnvelopeKeyRecord | HdKeyRecord

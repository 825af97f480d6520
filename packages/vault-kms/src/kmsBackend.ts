import type { Hex } from 'viem'

/** A key as the KMS holds it: its id there and its uncompressed public key (0x04‖x‖y). */
export type KmsKey = { keyId: string; publicKey: Hex }

/**
 * The handful of KMS calls a KMS vault needs; each service's adapter maps its SDK onto it and its
 * errors onto our codes (`vault_unavailable` for throttling and the network, `vault_error` else).
 */
export interface KmsBackend {
  /** `aws-kms` or `gcp-kms`: filed in each record, so a record is never sent to the other service. */
  readonly service: string
  /** A new secp256k1 signing key generated inside the KMS. */
  createKey(): Promise<KmsKey>
  /** Wraps `privateKey` (PKCS#8) for the KMS and imports it as a new signing key. */
  importKey(privateKey: Hex): Promise<KmsKey>
  /** The DER ECDSA signature of a 32-byte digest, exactly as the KMS returns it. */
  signDigest(keyId: string, digest: Uint8Array): Promise<Uint8Array>
  /** One cheap call that proves the KMS answers with these credentials. */
  probe(): Promise<void>
  /** Optional: Ed25519 keys, where the service signs pure Ed25519 (RFC 8032). */
  readonly ed25519?: KmsEd25519Backend | undefined
}

/** An Ed25519 key as the KMS holds it: its id there and its 32-byte public key. */
export type KmsEd25519Key = { keyId: string; publicKey: Uint8Array }

/** The KMS calls of a KMS vault's Ed25519 keys. Keys are made in the KMS; none is imported. */
export interface KmsEd25519Backend {
  /** A new Ed25519 signing key generated inside the KMS. */
  createKey(): Promise<KmsEd25519Key>
  /** The 64-byte Ed25519 signature of the whole `message` (pure Ed25519, not prehashed). */
  sign(keyId: string, message: Uint8Array): Promise<Uint8Array>
}

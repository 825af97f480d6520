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
}

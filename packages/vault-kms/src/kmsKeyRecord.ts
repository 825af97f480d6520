import type { Hex } from 'viem'

/** The Storage collection of KMS vault records (apart from `vault_keys`, whose records are sealed keys). */
export const kmsKeysCollection = 'kms_keys'

/**
 * What a KMS vault files per address: where the key lives, and its public key, so a signer needs no
 * KMS round trip before it signs and a record filed under the wrong address is caught.
 */
export type KmsKeyRecord = {
  version: 1
  kind: 'kms'
  /** Absent for secp256k1 (publicKey 0x04‖x‖y); `ed25519` for an Ed25519 key (publicKey its 32 bytes). */
  algorithm?: 'ed25519' | undefined
  service: string
  keyId: string
  publicKey: Hex
}

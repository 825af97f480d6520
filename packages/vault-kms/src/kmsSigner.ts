import { checkedSignature, signerFromSign } from '@agentwallet/core'
import { secp256k1 } from '@noble/curves/secp256k1'
import { type Address, getAddress, hexToBytes, type LocalAccount } from 'viem'
import type { KmsBackend } from './kmsBackend.js'
import type { KmsKeyRecord } from './kmsKeyRecord.js'

export type KmsSignerOptions = {
  backend: KmsBackend
  record: KmsKeyRecord
  address: Address
  /** Signatures the KMS may return that do not recover to the wallet before the signer gives up. */
  attempts: number
  /** Called once per refused signature (metrics, logs). */
  onInvalidSignature?: ((address: string) => void) | undefined
  /** Called once per signature checked and used. */
  onSigned?: (() => void) | undefined
}

/**
 * A viem account whose every signature is made in the KMS and checked before use (core's
 * `checkedSignature`: low s, the recovery id that recovers to the wallet, asked again when none
 * does, `vault_error` after `attempts`).
 * @example const signer = kmsSigner({ backend, record, address, attempts: 3 })
 */
export function kmsSigner(options: KmsSignerOptions): LocalAccount {
  const { backend, record, address, attempts } = options
  return signerFromSign(getAddress(address), async (hash) => {
    const signature = await checkedSignature({
      hash,
      address,
      signRaw: async () => rawSignature(await backend.signDigest(record.keyId, hexToBytes(hash))),
      maxAttempts: attempts,
      onBadSignature: () => options.onInvalidSignature?.(address),
    })
    options.onSigned?.()
    return signature
  })
}

/** r‖s of a KMS's DER ECDSA signature; an unreadable one gives no bytes (refused and asked again). */
function rawSignature(der: Uint8Array): Uint8Array {
  try {
    return secp256k1.Signature.fromDER(der).toCompactRawBytes()
  } catch {
    return new Uint8Array()
  }
}

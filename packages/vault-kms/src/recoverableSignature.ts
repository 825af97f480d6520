import { secp256k1 } from '@noble/curves/secp256k1'
import { bytesToHex, type Hex, numberToHex, type Signature } from 'viem'

/**
 * An Ethereum signature from a KMS's DER ECDSA signature of `digest`: s normalised to the low half
 * (EIP-2), and the recovery bit found by recovering the public key and comparing it with the key's.
 * `undefined` when neither recovery bit gives the key's public key (a signature to refuse).
 * @example const signature = recoverableSignature(der, digest, record.publicKey)
 */
export function recoverableSignature(
  der: Uint8Array,
  digest: Uint8Array,
  publicKey: Hex,
): Signature | undefined {
  let parsed: InstanceType<typeof secp256k1.Signature>
  try {
    parsed = secp256k1.Signature.fromDER(der).normalizeS()
  } catch {
    return undefined
  }
  for (const yParity of [0, 1] as const) {
    try {
      const recovered = parsed.addRecoveryBit(yParity).recoverPublicKey(digest)
      if (bytesToHex(recovered.toRawBytes(false)) === publicKey.toLowerCase()) {
        return {
          r: numberToHex(parsed.r, { size: 32 }),
          s: numberToHex(parsed.s, { size: 32 }),
          yParity,
          v: yParity === 0 ? 27n : 28n,
        }
      }
    } catch {
      // This recovery bit names no point on the curve: try the other.
    }
  }
  return undefined
}

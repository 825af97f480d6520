import { BaseError, ed25519Address } from '@agentwallet/core'
import { type Address, bytesToHex } from 'viem'
import { publicKeyToAddress } from 'viem/accounts'

/**
 * The address of a secp256k1 public key as CKA_EC_POINT holds it: a DER OCTET STRING around the
 * uncompressed point 04‖x‖y (PKCS#11 2.40), or the bare point, which some tokens return.
 * @example ecPointAddress(Buffer.from('0441' + '04' + x + y, 'hex'))
 */
export function ecPointAddress(ecPoint: Uint8Array): Address {
  const point =
    ecPoint.length === 67 && ecPoint[0] === 0x04 && ecPoint[1] === 0x41 ? ecPoint.subarray(2) : ecPoint
  if (point.length !== 65 || point[0] !== 0x04) {
    throw new BaseError(
      'vault_error',
      'The token returned an EC point that is not an uncompressed secp256k1 key',
      {
        details: { length: ecPoint.length },
      },
    )
  }
  return publicKeyToAddress(bytesToHex(point))
}

/**
 * The base58 address of an Ed25519 public key as CKA_EC_POINT holds it: a DER OCTET STRING around the
 * 32-byte key (04 20 ‖ key, PKCS#11 3.0), or the bare key, which some tokens return.
 * @example edwardsPointAddress(Buffer.from('0420' + publicKeyHex, 'hex'))
 */
export function edwardsPointAddress(ecPoint: Uint8Array): string {
  const key =
    ecPoint.length === 34 && ecPoint[0] === 0x04 && ecPoint[1] === 0x20 ? ecPoint.subarray(2) : ecPoint
  if (key.length !== 32) {
    throw new BaseError('vault_error', 'The token returned an EC point that is not an Ed25519 public key', {
      details: { length: ecPoint.length },
    })
  }
  return ed25519Address(key)
}

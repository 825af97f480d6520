import { createPrivateKey } from 'node:crypto'
import { type Hex, hexToBytes } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

const base64url = (hex: Hex) => Buffer.from(hexToBytes(hex)).toString('base64url')

/**
 * A secp256k1 private key as PKCS#8 DER, the form both KMSs import (wrapped under their RSA key).
 * @example publicEncrypt(wrappingKey, pkcs8FromPrivateKey(privateKey))
 */
export function pkcs8FromPrivateKey(privateKey: Hex): Buffer {
  const publicKey = privateKeyToAccount(privateKey).publicKey
  const key = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'secp256k1',
      d: base64url(privateKey),
      x: base64url(`0x${publicKey.slice(4, 68)}`),
      y: base64url(`0x${publicKey.slice(68)}`),
    },
    format: 'jwk',
  })
  return key.export({ format: 'der', type: 'pkcs8' })
}

import type * as Pkcs11js from 'pkcs11js'

/** CKA_EC_PARAMS of secp256k1: the DER of its object identifier 1.3.132.0.10. */
export const secp256k1Params = Buffer.from('06052b8104000a', 'hex')

/**
 * CKA_EC_PARAMS of Ed25519: the DER of id-Ed25519, 1.3.101.112 (RFC 8410). PKCS#11 3.0 also allows the
 * printable string "edwards25519"; SoftHSM2 2.6.1 takes both, the OID is the one HSMs share.
 */
export const ed25519Params = Buffer.from('06032b6570', 'hex')

/** PKCS#11 3.0 values that pkcs11js 2.1 does not name. */
export const pkcs11v3 = {
  CKK_EC_EDWARDS: 0x40,
  CKM_EC_EDWARDS_KEY_PAIR_GEN: 0x1055,
  CKM_EDDSA: 0x1057,
} as const

/** A key type as the token knows it: its CKA_KEY_TYPE and CKA_EC_PARAMS. */
export type TokenCurve = { keyType: number; params: Buffer }

export const secp256k1Curve = (binding: typeof Pkcs11js): TokenCurve => ({
  keyType: binding.CKK_EC,
  params: secp256k1Params,
})
export const ed25519Curve: TokenCurve = { keyType: pkcs11v3.CKK_EC_EDWARDS, params: ed25519Params }

/**
 * The attributes every wallet key has in the token: kept (token object), behind the PIN (private),
 * never readable or wrappable in plaintext (sensitive, not extractable), for signing only.
 */
export function privateKeyTemplate(binding: typeof Pkcs11js, id: Buffer, label: string): Pkcs11js.Template {
  return [
    { type: binding.CKA_TOKEN, value: true },
    { type: binding.CKA_PRIVATE, value: true },
    { type: binding.CKA_SENSITIVE, value: true },
    { type: binding.CKA_EXTRACTABLE, value: false },
    { type: binding.CKA_SIGN, value: true },
    { type: binding.CKA_ID, value: id },
    { type: binding.CKA_LABEL, value: label },
  ]
}

/** The public half: in the token too, so other tools see the pair under the same CKA_ID. */
export function publicKeyTemplate(
  binding: typeof Pkcs11js,
  id: Buffer,
  label: string,
  params: Buffer = secp256k1Params,
): Pkcs11js.Template {
  return [
    { type: binding.CKA_TOKEN, value: true },
    { type: binding.CKA_PRIVATE, value: false },
    { type: binding.CKA_VERIFY, value: true },
    { type: binding.CKA_EC_PARAMS, value: params },
    { type: binding.CKA_ID, value: id },
    { type: binding.CKA_LABEL, value: label },
  ]
}

/** The template of an imported key: the private-key template with its class, curve and value. */
export function importedKeyTemplate(
  binding: typeof Pkcs11js,
  id: Buffer,
  label: string,
  value: Buffer,
  curve = secp256k1Curve(binding),
): Pkcs11js.Template {
  return [
    { type: binding.CKA_CLASS, value: binding.CKO_PRIVATE_KEY },
    { type: binding.CKA_KEY_TYPE, value: curve.keyType },
    { type: binding.CKA_EC_PARAMS, value: curve.params },
    { type: binding.CKA_VALUE, value },
    ...privateKeyTemplate(binding, id, label),
  ]
}

/**
 * The template of an imported key's public half, with its point as CKA_EC_POINT wants it: a DER
 * OCTET STRING around the uncompressed secp256k1 point (65 bytes) or the Ed25519 public key (32).
 */
export function importedPublicKeyTemplate(
  binding: typeof Pkcs11js,
  id: Buffer,
  label: string,
  point: Buffer,
  curve = secp256k1Curve(binding),
): Pkcs11js.Template {
  return [
    { type: binding.CKA_CLASS, value: binding.CKO_PUBLIC_KEY },
    { type: binding.CKA_KEY_TYPE, value: curve.keyType },
    { type: binding.CKA_EC_POINT, value: Buffer.concat([Buffer.from([0x04, point.length]), point]) },
    ...publicKeyTemplate(binding, id, label, curve.params),
  ]
}

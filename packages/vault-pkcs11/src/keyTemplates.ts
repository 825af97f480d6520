import type * as Pkcs11js from 'pkcs11js'

/** CKA_EC_PARAMS of secp256k1: the DER of its object identifier 1.3.132.0.10. */
export const secp256k1Params = Buffer.from('06052b8104000a', 'hex')

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
export function publicKeyTemplate(binding: typeof Pkcs11js, id: Buffer, label: string): Pkcs11js.Template {
  return [
    { type: binding.CKA_TOKEN, value: true },
    { type: binding.CKA_PRIVATE, value: false },
    { type: binding.CKA_VERIFY, value: true },
    { type: binding.CKA_EC_PARAMS, value: secp256k1Params },
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
): Pkcs11js.Template {
  return [
    { type: binding.CKA_CLASS, value: binding.CKO_PRIVATE_KEY },
    { type: binding.CKA_KEY_TYPE, value: binding.CKK_EC },
    { type: binding.CKA_EC_PARAMS, value: secp256k1Params },
    { type: binding.CKA_VALUE, value },
    ...privateKeyTemplate(binding, id, label),
  ]
}

/** The template of an imported key's public half, with its point as CKA_EC_POINT wants it (DER). */
export function importedPublicKeyTemplate(
  binding: typeof Pkcs11js,
  id: Buffer,
  label: string,
  uncompressedPoint: Buffer,
): Pkcs11js.Template {
  return [
    { type: binding.CKA_CLASS, value: binding.CKO_PUBLIC_KEY },
    { type: binding.CKA_KEY_TYPE, value: binding.CKK_EC },
    { type: binding.CKA_EC_POINT, value: Buffer.concat([Buffer.from([0x04, 0x41]), uncompressedPoint]) },
    ...publicKeyTemplate(binding, id, label),
  ]
}

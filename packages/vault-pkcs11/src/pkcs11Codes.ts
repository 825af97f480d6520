/** The PKCS#11 return values this package reacts to (from the Cryptoki headers). */
export const pkcs11Codes = {
  CKR_GENERAL_ERROR: 0x05,
  CKR_ATTRIBUTE_VALUE_INVALID: 0x13,
  CKR_DEVICE_ERROR: 0x30,
  CKR_DEVICE_MEMORY: 0x31,
  CKR_DEVICE_REMOVED: 0x32,
  CKR_FUNCTION_NOT_SUPPORTED: 0x54,
  CKR_OBJECT_HANDLE_INVALID: 0x82,
  CKR_PIN_INCORRECT: 0xa0,
  CKR_PIN_LOCKED: 0xa4,
  CKR_SESSION_CLOSED: 0xb0,
  CKR_SESSION_HANDLE_INVALID: 0xb3,
  CKR_TEMPLATE_INCONSISTENT: 0xd1,
  CKR_TOKEN_NOT_PRESENT: 0xe0,
  CKR_TOKEN_NOT_RECOGNIZED: 0xe1,
  CKR_TOKEN_WRITE_PROTECTED: 0xe2,
  CKR_USER_ALREADY_LOGGED_IN: 0x100,
  CKR_USER_NOT_LOGGED_IN: 0x101,
  CKR_CRYPTOKI_NOT_INITIALIZED: 0x190,
  CKR_CRYPTOKI_ALREADY_INITIALIZED: 0x191,
} as const

/** True when `error` is a Cryptoki error (pkcs11js' Pkcs11Error) with the given return value. */
export function isPkcs11Code(error: unknown, code: number): boolean {
  return pkcs11CodeOf(error) === code
}

/** The Cryptoki return value of a pkcs11js error, if it is one. */
export function pkcs11CodeOf(error: unknown): number | undefined {
  if (!(error instanceof Error) || !('code' in error)) return undefined
  return typeof error.code === 'number' ? error.code : undefined
}

/** Return values that mean the token, its sessions or the library are gone, not that a call was wrong. */
export const goneCodes: ReadonlySet<number> = new Set([
  pkcs11Codes.CKR_DEVICE_ERROR,
  pkcs11Codes.CKR_DEVICE_MEMORY,
  pkcs11Codes.CKR_DEVICE_REMOVED,
  pkcs11Codes.CKR_SESSION_CLOSED,
  pkcs11Codes.CKR_SESSION_HANDLE_INVALID,
  pkcs11Codes.CKR_TOKEN_NOT_PRESENT,
  pkcs11Codes.CKR_TOKEN_NOT_RECOGNIZED,
  pkcs11Codes.CKR_USER_NOT_LOGGED_IN,
  pkcs11Codes.CKR_CRYPTOKI_NOT_INITIALIZED,
])

import {
  type Address,
  concat,
  getAddress,
  type Hex,
  recoverAddress,
  recoverMessageAddress,
  slice,
  toHex,
} from 'viem'
import { ValidationError } from '../errors/errors.js'

/**
 * The owner behind an outside 65-byte ECDSA signature over a safeTxHash, and the signature in the
 * form Safe verifies: v 27/28 signs the EIP-712 hash itself (v 0/1 are normalised to 27/28);
 * v 31/32 is an `eth_sign` over it (Safe subtracts 4). Contract (v=0) and approved-hash (v=1)
 * signature types are not accepted here.
 * @example const { owner, signature } = await recoverSafeSigner(safeTxHash, '0x…')
 */
export async function recoverSafeSigner(
  safeTxHash: Hex,
  signature: Hex,
): Promise<{ owner: Address; signature: Hex }> {
  const rs = slice(signature, 0, 64)
  const v = Number.parseInt(signature.slice(130, 132), 16)
  try {
    if (v === 0 || v === 1 || v === 27 || v === 28) {
      const normalised = concat([rs, toHex(v < 27 ? v + 27 : v, { size: 1 })])
      return {
        owner: getAddress(await recoverAddress({ hash: safeTxHash, signature: normalised })),
        signature: normalised,
      }
    }
    if (v === 31 || v === 32) {
      const owner = await recoverMessageAddress({
        message: { raw: safeTxHash },
        signature: concat([rs, toHex(v - 4, { size: 1 })]),
      })
      return { owner: getAddress(owner), signature }
    }
  } catch (cause) {
    throw invalid('The signature does not recover to an address', cause)
  }
  throw invalid(
    `Unsupported signature type (v = ${v}): give an ECDSA signature with v 27/28 (EIP-712) or 31/32 (eth_sign)`,
  )
}

function invalid(message: string, cause?: unknown): ValidationError {
  return new ValidationError(message, { details: { issues: [{ path: 'signature', message }] }, cause })
}

import { randomBytes } from 'node:crypto'
import type { Address } from 'viem'
import { hexToBytes } from 'viem'
import { ecPointAddress } from './ecPointAddress.js'
import {
  importedKeyTemplate,
  importedPublicKeyTemplate,
  privateKeyTemplate,
  publicKeyTemplate,
} from './keyTemplates.js'
import type { TokenSession } from './tokenConnection.js'

/** A wallet's keys are found by CKA_ID, the 20 bytes of its address; CKA_LABEL is the address. */
export const keyId = (address: Address): Buffer => Buffer.from(hexToBytes(address))

/** The handle of the wallet's private key in the token, if the token holds it. */
export function findPrivateKey({ lib, binding, session }: TokenSession, address: Address) {
  lib.C_FindObjectsInit(session, [
    { type: binding.CKA_CLASS, value: binding.CKO_PRIVATE_KEY },
    { type: binding.CKA_ID, value: keyId(address) },
  ])
  try {
    return lib.C_FindObjects(session) ?? undefined
  } finally {
    lib.C_FindObjectsFinal(session)
  }
}

/**
 * Generates a secp256k1 pair in the token and files it under its address. The address is known
 * only once the pair exists: it is generated under a random CKA_ID, then given its own.
 */
export async function generateTokenKey(token: TokenSession): Promise<Address> {
  const { lib, binding, session } = token
  const pendingId = randomBytes(20)
  const label = 'agentwallet pending key'
  const pair = await lib.C_GenerateKeyPairAsync(
    session,
    { mechanism: binding.CKM_EC_KEY_PAIR_GEN },
    publicKeyTemplate(binding, pendingId, label),
    privateKeyTemplate(binding, pendingId, label),
  )
  const [point] = lib.C_GetAttributeValue(session, pair.publicKey, [{ type: binding.CKA_EC_POINT }])
  const address = ecPointAddress(point!.value)
  for (const handle of [pair.publicKey, pair.privateKey]) {
    lib.C_SetAttributeValue(session, handle, [
      { type: binding.CKA_ID, value: keyId(address) },
      { type: binding.CKA_LABEL, value: address },
    ])
  }
  return address
}

/** Creates the key in the token as a sensitive, non-extractable object, with its public half. */
export function importTokenKey(
  { lib, binding, session }: TokenSession,
  address: Address,
  value: Buffer,
  uncompressedPoint: Buffer,
): void {
  const id = keyId(address)
  const privateKey = lib.C_CreateObject(session, importedKeyTemplate(binding, id, address, value))
  try {
    lib.C_CreateObject(session, importedPublicKeyTemplate(binding, id, address, uncompressedPoint))
  } catch (error) {
    lib.C_DestroyObject(session, privateKey)
    throw error
  }
}

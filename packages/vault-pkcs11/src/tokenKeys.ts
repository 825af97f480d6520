import { randomBytes } from 'node:crypto'
import type { Address } from 'viem'
import { hexToBytes } from 'viem'
import { ecPointAddress } from './ecPointAddress.js'
import {
  importedKeyTemplate,
  importedPublicKeyTemplate,
  privateKeyTemplate,
  publicKeyTemplate,
  secp256k1Params,
  type TokenCurve,
} from './keyTemplates.js'
import type { TokenSession } from './tokenConnection.js'

/** A wallet's keys are found by CKA_ID, the 20 bytes of its address; CKA_LABEL is the address. */
export const keyId = (address: Address): Buffer => Buffer.from(hexToBytes(address))

/** The handle of the private key filed under CKA_ID `id` in the token, if the token holds it. */
export function findPrivateKeyById({ lib, binding, session }: TokenSession, id: Buffer) {
  lib.C_FindObjectsInit(session, [
    { type: binding.CKA_CLASS, value: binding.CKO_PRIVATE_KEY },
    { type: binding.CKA_ID, value: id },
  ])
  try {
    return lib.C_FindObjects(session) ?? undefined
  } finally {
    lib.C_FindObjectsFinal(session)
  }
}

/** The handle of the wallet's private key in the token, if the token holds it. */
export const findPrivateKey = (token: TokenSession, address: Address) =>
  findPrivateKeyById(token, keyId(address))

/**
 * Generates a pair in the token and files it under the id and label its public key gives. Those
 * are known only once the pair exists: it is generated under a random CKA_ID, then given its own.
 */
export async function generateTokenPair<T>(
  token: TokenSession,
  mechanism: number,
  params: Buffer,
  nameOf: (ecPoint: Buffer) => { id: Buffer; label: string; name: T },
): Promise<T> {
  const { lib, binding, session } = token
  const pendingId = randomBytes(20)
  const label = 'agentwallet pending key'
  const pair = await lib.C_GenerateKeyPairAsync(
    session,
    { mechanism },
    publicKeyTemplate(binding, pendingId, label, params),
    privateKeyTemplate(binding, pendingId, label),
  )
  const [point] = lib.C_GetAttributeValue(session, pair.publicKey, [{ type: binding.CKA_EC_POINT }])
  const { id, label: own, name } = nameOf(point!.value)
  for (const handle of [pair.publicKey, pair.privateKey]) {
    lib.C_SetAttributeValue(session, handle, [
      { type: binding.CKA_ID, value: id },
      { type: binding.CKA_LABEL, value: own },
    ])
  }
  return name
}

/** Generates a secp256k1 pair in the token and files it under its address. */
export const generateTokenKey = (token: TokenSession): Promise<Address> =>
  generateTokenPair(token, token.binding.CKM_EC_KEY_PAIR_GEN, secp256k1Params, (point) => {
    const address = ecPointAddress(point)
    return { id: keyId(address), label: address, name: address }
  })

/** Creates a key in the token as a sensitive, non-extractable object, with its public half. */
export function importTokenPair(
  { lib, binding, session }: TokenSession,
  key: { id: Buffer; label: string; value: Buffer; point: Buffer; curve?: TokenCurve | undefined },
): void {
  const { id, label, value, point, curve } = key
  const privateKey = lib.C_CreateObject(session, importedKeyTemplate(binding, id, label, value, curve))
  try {
    lib.C_CreateObject(session, importedPublicKeyTemplate(binding, id, label, point, curve))
  } catch (error) {
    lib.C_DestroyObject(session, privateKey)
    throw error
  }
}

/** Creates a secp256k1 key in the token, filed under its address. */
export const importTokenKey = (
  token: TokenSession,
  address: Address,
  value: Buffer,
  uncompressedPoint: Buffer,
) => importTokenPair(token, { id: keyId(address), label: address, value, point: uncompressedPoint })

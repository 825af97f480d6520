import { BaseError } from '@agentwallet/core'
import {
  type Address,
  getAddress,
  type Hex,
  hashMessage,
  hashTypedData,
  hexToBytes,
  keccak256,
  type LocalAccount,
  type Signature,
  serializeSignature,
  serializeTransaction,
  type TypedDataDefinition,
} from 'viem'
import { toAccount } from 'viem/accounts'
import type { KmsBackend } from './kmsBackend.js'
import type { KmsKeyRecord } from './kmsKeyRecord.js'
import { recoverableSignature } from './recoverableSignature.js'

export type KmsSignerOptions = {
  backend: KmsBackend
  record: KmsKeyRecord
  address: Address
  /** Signatures the KMS may return that do not recover to the key before the signer gives up. */
  attempts: number
  /** Called once per refused signature (metrics, logs). */
  onInvalidSignature?: ((address: Address) => void) | undefined
  /** Called once per signature checked and used. */
  onSigned?: (() => void) | undefined
}

/**
 * A viem account whose every signature is made in the KMS and checked before use: a DER signature
 * that does not recover to the key is asked for again, and after `attempts` fails with `vault_error`.
 * @example const signer = kmsSigner({ backend, record, address, attempts: 3 })
 */
export function kmsSigner(options: KmsSignerOptions): LocalAccount {
  const { backend, record, address, attempts } = options

  const signHash = async (hash: Hex): Promise<Signature> => {
    const digest = hexToBytes(hash)
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      const der = await backend.signDigest(record.keyId, digest)
      const signature = recoverableSignature(der, digest, record.publicKey)
      if (signature) {
        options.onSigned?.()
        return signature
      }
      options.onInvalidSignature?.(address)
    }
    throw new BaseError('vault_error', 'The KMS returned signatures that do not belong to the key', {
      details: { address, service: backend.service, attempts },
    })
  }

  return toAccount({
    address: getAddress(address),
    sign: async ({ hash }) => serializeSignature(await signHash(hash)),
    signMessage: async ({ message }) => serializeSignature(await signHash(hashMessage(message))),
    signTypedData: async (typedData) =>
      serializeSignature(await signHash(hashTypedData(typedData as TypedDataDefinition))),
    async signTransaction(transaction, { serializer = serializeTransaction } = {}) {
      // A blob transaction is signed without its sidecars, as viem's own signer does.
      const signable = transaction.type === 'eip4844' ? { ...transaction, sidecars: false } : transaction
      const signature = await signHash(keccak256(await serializer(signable)))
      return serializer(transaction, signature)
    },
  })
}

import {
  type Address,
  type CompiledTransactionMessage,
  type CompiledTransactionMessageWithLifetime,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Signature,
  type Transaction,
} from '@solana/kit'
import { invalidParam } from './solanaRpcError.js'

/** A compiled legacy or v0 message (kit also knows v1, which the runtime does not run yet). */
export type CompiledMessage = Extract<CompiledTransactionMessage, { version: 'legacy' | 0 }> &
  CompiledTransactionMessageWithLifetime

export type DecodedTransaction = {
  transaction: Transaction
  message: CompiledMessage
  /** The first signature, base58: the transaction's id. */
  signature: Signature
  signatures: string[]
  /** The message's static account keys (lookup-table addresses are not resolved). */
  accountKeys: Address[]
  writable: boolean[]
  blockhash: string
}

/**
 * A wire transaction (legacy or v0) decoded with `@solana/kit`'s codecs. Throws an invalid-params
 * error, as a node does, for bytes that are no transaction.
 */
export function decodeWireTransaction(wire: Uint8Array): DecodedTransaction {
  let transaction: Transaction
  let compiled: ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>['decode']>
  try {
    transaction = getTransactionDecoder().decode(wire)
    compiled = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes)
  } catch {
    throw invalidParam('failed to deserialize transaction')
  }
  if (compiled.version !== 'legacy' && compiled.version !== 0)
    throw invalidParam(`unsupported transaction version ${compiled.version}`)
  const message = compiled as CompiledMessage
  const base58 = getBase58Decoder()
  const signatures = Object.values(transaction.signatures).map((bytes) =>
    bytes ? base58.decode(bytes) : base58.decode(new Uint8Array(64)),
  )
  const { header, staticAccounts } = message
  const signers = header.numSignerAccounts
  const writable = staticAccounts.map((_, index) =>
    index < signers
      ? index < signers - header.numReadonlySignerAccounts
      : index < staticAccounts.length - header.numReadonlyNonSignerAccounts,
  )
  return {
    transaction,
    message,
    signature: (signatures[0] ?? '') as Signature,
    signatures,
    accountKeys: staticAccounts,
    writable,
    blockhash: message.lifetimeToken,
  }
}

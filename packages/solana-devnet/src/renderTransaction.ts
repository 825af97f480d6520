import { getBase58Decoder, getBase64Decoder } from '@solana/kit'
import type { TransactionRecord } from './createLedger.js'
import { invalidParam } from './solanaRpcError.js'

/** A landed transaction as `getTransaction` answers it (encoding `json`, `base64` or `base58`). */
export function renderTransaction(record: TransactionRecord, encoding = 'json') {
  const { decoded } = record
  const version = decoded.message.version
  return {
    slot: record.slot,
    blockTime: record.blockTime,
    version,
    transaction: encodeTransaction(record, encoding),
    meta: {
      err: record.err,
      status: record.err === null ? { Ok: null } : { Err: record.err },
      fee: record.fee,
      preBalances: record.preBalances,
      postBalances: record.postBalances,
      innerInstructions: record.innerInstructions,
      logMessages: record.logMessages,
      preTokenBalances: record.preTokenBalances,
      postTokenBalances: record.postTokenBalances,
      rewards: [],
      loadedAddresses: { writable: [], readonly: [] },
      computeUnitsConsumed: record.computeUnitsConsumed,
    },
  }
}

function encodeTransaction({ decoded, wire }: TransactionRecord, encoding: string) {
  if (encoding === 'base64') return [getBase64Decoder().decode(wire), 'base64']
  if (encoding === 'base58') return [getBase58Decoder().decode(wire), 'base58']
  if (encoding !== 'json')
    throw invalidParam(`unsupported encoding: ${encoding}. Supported: json, base64, base58`)
  const { message } = decoded
  const base58 = getBase58Decoder()
  return {
    signatures: decoded.signatures,
    message: {
      accountKeys: message.staticAccounts,
      header: {
        numRequiredSignatures: message.header.numSignerAccounts,
        numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
        numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
      },
      recentBlockhash: message.lifetimeToken,
      instructions: message.instructions.map((instruction) => ({
        programIdIndex: instruction.programAddressIndex,
        accounts: instruction.accountIndices ?? [],
        data: base58.decode(instruction.data ?? new Uint8Array()),
        stackHeight: null,
      })),
      ...(message.version === 0
        ? {
            addressTableLookups: (message.addressTableLookups ?? []).map((lookup) => ({
              accountKey: lookup.lookupTableAddress,
              writableIndexes: lookup.writableIndexes,
              readonlyIndexes: lookup.readonlyIndexes,
            })),
          }
        : {}),
    },
  }
}

import { getBase58Decoder } from '@solana/kit'
import type { TransactionMetadata } from 'litesvm'

/** LiteSVM's inner instructions in the JSON shape of `meta.innerInstructions` (encoding `json`). */
export function toInnerInstructions(meta: TransactionMetadata) {
  const base58 = getBase58Decoder()
  return meta
    .innerInstructions()
    .map((list, index) => ({
      index,
      instructions: list.map((inner) => {
        const instruction = inner.instruction()
        return {
          programIdIndex: instruction.programIdIndex(),
          accounts: [...instruction.accounts()],
          data: base58.decode(instruction.data()),
          stackHeight: inner.stackHeight(),
        }
      }),
    }))
    .filter((entry) => entry.instructions.length > 0)
}

/** `returnData` of a transaction's meta, or null when its programs returned nothing. */
export function toReturnData(meta: TransactionMetadata) {
  const returned = meta.returnData()
  const data = returned.data()
  if (data.length === 0) return null
  return {
    programId: getBase58Decoder().decode(returned.programId()),
    data: [Buffer.from(data).toString('base64'), 'base64'],
  }
}

import {
  type Address,
  bytesToBigInt,
  bytesToHex,
  decodeFunctionData,
  getAddress,
  type Hex,
  hexToBytes,
  isAddressEqual,
} from 'viem'
import { safeAbi } from '../chain/safeAbi.js'
import type { ChainHandle } from '../chain/types.js'
import { effectAbis } from './effectAbis.js'
import { mergeEffects } from './mergeEffects.js'
import type { PredictedCall } from './predictEffects.js'
import type { Effect } from './types.js'

type Decode = (
  chain: ChainHandle,
  accounts: { from: Address; holder?: Address | undefined },
  call: PredictedCall,
) => Promise<Effect[] | undefined>

/**
 * The effects on `safe` of its `execTransaction(data)`: those of the call it makes (decoded as if the
 * Safe sent it), or of every call of a MultiSend batch it delegatecalls, merged. Undefined when the
 * calldata cannot tell: another delegatecall, a delegatecall inside the batch, a gas refund (paid
 * out of the Safe by gas used, which only a simulation knows), or an inner call not decodable.
 * `decode` is `decodeEffects`, passed in so the two files do not import each other.
 * @example await decodeSafeExecution(chain, safe, execData, decodeEffects) // [{ kind: 'out', … }]
 */
export async function decodeSafeExecution(
  chain: ChainHandle,
  safe: Address,
  data: Hex,
  decode: Decode,
): Promise<Effect[] | undefined> {
  let exec: ReturnType<typeof decodeExec>
  try {
    exec = decodeExec(data)
  } catch {
    return undefined
  }
  if (!exec) return undefined
  const [to, value, inner, operation, , , gasPrice] = exec.args
  if (gasPrice !== 0n) return undefined
  const calls = operation === 0 ? [{ operation, to, value, data: inner }] : multiSendCalls(chain, to, inner)
  if (!calls || calls.some((call) => call.operation !== 0)) return undefined
  const effects: Effect[] = []
  for (const call of calls) {
    const decoded = await decode(chain, { from: safe }, call)
    if (!decoded) return undefined
    effects.push(...decoded)
  }
  return mergeEffects(effects)
}

function decodeExec(data: Hex) {
  const call = decodeFunctionData({ abi: safeAbi, data })
  return call.functionName === 'execTransaction' ? call : undefined
}

/** The calls of a delegatecall to the address book's MultiSend, or undefined for any other delegatecall. */
function multiSendCalls(chain: ChainHandle, to: Address, data: Hex) {
  const { multiSend, multiSendCallOnly } = chain.contracts.safe ?? {}
  const isMultiSend = [multiSend, multiSendCallOnly].some(
    (address) => address !== undefined && isAddressEqual(address, to),
  )
  if (!isMultiSend) return undefined
  try {
    return unpackBatch(decodeFunctionData({ abi: effectAbis.multiSend, data }).args[0])
  } catch {
    return undefined
  }
}

/** `multiSend(bytes)`'s packed calls: operation (1 byte), to (20), value (32), data length (32), data. */
function unpackBatch(packed: Hex) {
  const bytes = hexToBytes(packed)
  const calls: { operation: number; to: Address; value: bigint; data: Hex }[] = []
  for (let at = 0; at < bytes.length; ) {
    if (at + 85 > bytes.length) return undefined
    const length = Number(bytesToBigInt(bytes.slice(at + 53, at + 85)))
    if (at + 85 + length > bytes.length) return undefined
    calls.push({
      operation: bytes[at]!,
      to: getAddress(bytesToHex(bytes.slice(at + 1, at + 21))),
      value: bytesToBigInt(bytes.slice(at + 21, at + 53)),
      data: bytesToHex(bytes.slice(at + 85, at + 85 + length)),
    })
    at += 85 + length
  }
  return calls
}

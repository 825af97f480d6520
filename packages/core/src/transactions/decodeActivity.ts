import {
  type Abi,
  type AbiEvent,
  type AbiFunction,
  type AbiParameter,
  decodeEventLog,
  decodeFunctionData,
  formatUnits,
  getAddress,
  type Hex,
  toEventSelector,
  toFunctionSelector,
} from 'viem'
import type { z } from 'zod'
import { type KnownContract, knownAbis } from './knownAbis.js'
import type { argumentSchema, DecodedCall, DecodedEvent } from './transactionSchemas.js'

/** A JSON value: what a decoded argument becomes (integers as decimal strings, bytes as hex). */
type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

/**
 * The call a transaction makes, decoded with the ABIs of its target first, then every known ABI.
 * @example decodeCall('0xa9059cbb…', knownContracts(book).get(to)) // { function: 'transfer', … }
 */
export function decodeCall(data: Hex, target: KnownContract | undefined): DecodedCall {
  for (const abi of [...(target?.abis ?? []), ...knownAbis]) {
    try {
      const decoded = decodeFunctionData({ abi, data })
      const item = (abi as readonly AbiFunction[]).find(
        (entry) => entry.type === 'function' && toFunctionSelector(entry) === data.slice(0, 10),
      )
      if (!item) continue
      return {
        signature: signatureOf(item),
        function: decoded.functionName,
        args: argumentsOf(item.inputs, decoded.args ?? [], target),
      }
    } catch {
      // Not this ABI's selector, or arguments it cannot read: the next one.
    }
  }
  return { signature: null, function: null, args: [] }
}

/**
 * One receipt log, decoded with the emitter's ABIs first (strictly: an ERC-721 `Transfer` is not
 * taken for an ERC-20 one), else left raw.
 * @example decodeEvent(receipt.logs[0], knownContracts(book).get(log.address.toLowerCase()))
 */
export function decodeEvent(
  log: { address: Hex; topics: readonly Hex[]; data: Hex; logIndex: number | null },
  emitter: KnownContract | undefined,
): DecodedEvent {
  const raw = {
    logIndex: log.logIndex ?? 0,
    address: getAddress(log.address),
    contract: emitter?.label ?? null,
    topics: [...log.topics],
    data: log.data,
  }
  const [selector, ...rest] = log.topics
  if (selector !== undefined) {
    for (const abi of [...(emitter?.abis ?? []), ...knownAbis]) {
      const item = (abi as readonly AbiEvent[]).find(
        (entry) => entry.type === 'event' && toEventSelector(entry) === selector,
      )
      if (!item) continue
      try {
        const decoded = decodeEventLog({
          abi: [item] as Abi,
          topics: [selector, ...rest],
          data: log.data,
          strict: true,
        })
        const args = item.inputs.map((input, index) =>
          Array.isArray(decoded.args)
            ? decoded.args[index]
            : (decoded.args as unknown as Record<string, unknown>)[input.name ?? ''],
        )
        return {
          ...raw,
          signature: signatureOf(item),
          event: item.name,
          args: argumentsOf(item.inputs, args, emitter),
        }
      } catch {
        // Same selector, another shape (indexed count): the next ABI.
      }
    }
  }
  return { ...raw, signature: null, event: null, args: [] }
}

function signatureOf(item: AbiFunction | AbiEvent): string {
  return `${item.name}(${item.inputs.map((input) => input.type).join(',')})`
}

/** Names amounts of a known token in its units; everything as JSON. */
function argumentsOf(
  inputs: readonly AbiParameter[],
  values: readonly unknown[],
  contract: KnownContract | undefined,
): z.infer<typeof argumentSchema>[] {
  return inputs.map((input, index) => {
    const value = values[index]
    const name = input.name || `arg${index}`
    const amount =
      contract?.token && typeof value === 'bigint' && /^(value|amount|wad)$/.test(name)
        ? `${formatUnits(value, contract.token.decimals)} ${contract.token.symbol}`
        : undefined
    return { name, type: input.type, value: toJson(value), ...(amount ? { formatted: amount } : {}) }
  })
}

function toJson(value: unknown): Json {
  if (typeof value === 'bigint') return value.toString()
  if (Array.isArray(value)) return value.map(toJson)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, toJson(entry)]))
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value
  return null
}

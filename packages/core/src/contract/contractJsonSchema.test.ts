import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { contractList } from './contractList.js'

/**
 * What a schema is built from, one level down (as zod/v4/core defines them): `wrapped`, what it
 * wraps and shows as the same JSON Schema node (optional, default, nullable, a pipe's ends); `parts`,
 * the schemas of its own nodes (an object's fields, an array's element, a union's options, …).
 */
function childrenOf(schema: z.core.$ZodType): { wrapped: unknown[]; parts: unknown[] } {
  const def = schema._zod.def as unknown as Record<string, unknown>
  const fields = def.type === 'object' ? Object.values((schema as z.core.$ZodObject)._zod.def.shape) : []
  const options = Array.isArray(def.options) ? def.options : []
  return {
    wrapped: [def.innerType, def.in, def.out],
    parts: [def.element, def.left, def.right, def.keyType, def.valueType, ...fields, ...options],
  }
}

/**
 * Every description registered on `schema` or a schema it is built from, but one a wrapper replaces
 * with its own (`z.optional(chainField).check(z.describe('The chain the transaction is on'))`).
 */
function descriptionsIn(schema: unknown, replaced = false): string[] {
  if (!(schema instanceof z.core.$ZodType)) return []
  const own = z.globalRegistry.get(schema)?.description
  const { wrapped, parts } = childrenOf(schema)
  return [
    ...(own && !replaced ? [own] : []),
    ...wrapped.flatMap((inner) => descriptionsIn(inner, replaced || own !== undefined)),
    ...parts.flatMap((part) => descriptionsIn(part)),
  ]
}

/** Every `description` in a JSON Schema, at any depth. */
function descriptionsOfJson(json: unknown): string[] {
  if (Array.isArray(json)) return json.flatMap(descriptionsOfJson)
  if (typeof json !== 'object' || json === null) return []
  const own = (json as { description?: unknown }).description
  return [...(typeof own === 'string' ? [own] : []), ...Object.values(json).flatMap(descriptionsOfJson)]
}

// A contract entry is written with zod/mini: its descriptions are `z.describe` (or `z.meta`) checks. The
// OpenAPI document and the agent tools read them from `z.toJSONSchema`, so none may get lost on the way.
describe('the contract as JSON Schema', () => {
  it('carries every description of every operation’s input and output', () => {
    const lost = contractList.flatMap((operation) =>
      (['input', 'output'] as const).flatMap((io) => {
        const schema = operation[io]
        const json = new Set(descriptionsOfJson(z.toJSONSchema(schema, { io, unrepresentable: 'any' })))
        // An input's JSON Schema is what is sent, before a transform: the output side of a pipe is not in it.
        return descriptionsIn(schema)
          .filter((description) => !json.has(description))
          .map((description) => `${operation.name} ${io}: ${description}`)
      }),
    )
    expect(lost).toEqual([])
  })

  it('finds the descriptions it checks: the wallet every operation acts on is described', () => {
    const getWallet = contractList.find((operation) => operation.name === 'getWallet')!
    expect(descriptionsIn(getWallet.input)).toContain(
      'Address of a managed wallet (EVM: 0x + 40 hex; Solana: base58)',
    )
  })
})

import { z } from 'zod'

/** A JSON Schema whose top is an object, as MCP's `inputSchema`/`outputSchema` and LLM APIs require. */
export type JsonObjectSchema = {
  type: 'object'
  properties?: Record<string, object>
  required?: string[]
  [keyword: string]: unknown
}

/**
 * The JSON Schema of `schema`: what a caller may send (`input`: before transforms, defaults make
 * fields optional) or what it receives (`output`).
 * @example toJsonObjectSchema(operations.send.input, 'input')
 */
export function toJsonObjectSchema(schema: z.core.$ZodType, io: 'input' | 'output'): JsonObjectSchema {
  // `$schema` is dropped: some MCP clients only accept the bare object form. Refinements cannot be
  // expressed; the handler still validates them.
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >
  // A union of objects (send's answer) has no `type` of its own; MCP requires `type: "object"` on top.
  return { type: 'object', ...json } as JsonObjectSchema
}

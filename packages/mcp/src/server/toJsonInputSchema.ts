import { z } from 'zod'

/** What MCP's tools/list carries for a tool's input: a JSON Schema object. */
export type JsonInputSchema = {
  type: 'object'
  properties?: Record<string, object>
  required?: string[]
  [key: string]: unknown
}

/**
 * The JSON Schema of what a caller may send (zod's input side: defaults make fields optional).
 * @example toJsonInputSchema(z.strictObject({ address: addressSchema }))
 */
export function toJsonInputSchema(schema: z.ZodType): JsonInputSchema {
  // `$schema` is dropped: some MCP clients only accept the bare object form.
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >
  return { ...json, type: 'object' }
}

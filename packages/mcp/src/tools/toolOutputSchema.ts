import type { OperationContract as OperationDeclaration } from '@agentwallet/core/contract'
import { approvalInstructionsSchema } from './approvalInstructions.js'
import { type JsonObjectSchema, toJsonObjectSchema } from './toJsonObjectSchema.js'

const howToApprove = toJsonObjectSchema(approvalInstructionsSchema, 'output')

/**
 * The JSON Schema of what a tool answers: the operation's output, where an answer that carries an
 * `approval` may also carry `howToApprove` (see `withApprovalInstructions`).
 * @example toolOutputSchema(operations.send).oneOf
 */
export function toolOutputSchema(operation: OperationDeclaration): JsonObjectSchema {
  return withHowToApprove(toJsonObjectSchema(operation.output, 'output')) as JsonObjectSchema
}

/** Adds the optional `howToApprove` beside `approval` in the object, or in each object of a union. */
function withHowToApprove(schema: Record<string, unknown>): Record<string, unknown> {
  const variants = ['oneOf', 'anyOf'] as const
  const withVariants = { ...schema }
  for (const keyword of variants) {
    const list = schema[keyword]
    if (Array.isArray(list)) withVariants[keyword] = list.map((variant) => withHowToApprove(variant))
  }
  const properties = schema.properties as Record<string, unknown> | undefined
  if (!properties || !('approval' in properties)) return withVariants
  return { ...withVariants, properties: { ...properties, howToApprove } }
}

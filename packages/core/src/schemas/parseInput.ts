import * as z from 'zod/mini'
import { ValidationError } from '../errors/errors.js'

/**
 * Parses `input` with `schema` (zod/mini or classic), or throws `validation_failed` listing every issue by path.
 * @example const params = parseInput(sendSchema, body)
 */
export function parseInput<TSchema extends z.core.$ZodType>(
  schema: TSchema,
  input: unknown,
): z.output<TSchema> {
  // zod/mini brings no messages of its own (classic zod sets English when it first builds a schema):
  // set them, so an issue reads the same where only the contract is loaded.
  if (!z.config().localeError) z.config(z.locales.en())
  const result = z.safeParse(schema, input)
  if (result.success) return result.data
  const issues = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }))
  const first = issues[0]
  const summary = first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : 'Invalid input'
  throw new ValidationError(summary, { details: { issues } })
}

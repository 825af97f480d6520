import type * as z from 'zod'
import { ValidationError } from '../errors/errors.js'

/**
 * Parses `input` with `schema`, or throws `validation_failed` listing every issue by path.
 * @example const params = parseInput(sendSchema, body)
 */
export function parseInput<TSchema extends z.ZodType>(schema: TSchema, input: unknown): z.output<TSchema> {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  const issues = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }))
  const first = issues[0]
  const summary = first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : 'Invalid input'
  throw new ValidationError(summary, { details: { issues } })
}

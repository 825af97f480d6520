import * as z from 'zod/mini'

/** The key a model reuses when it retries a tool that moves value, so the action happens once. */
export const idempotencyKeySchema = z
  .optional(z.string().check(z.minLength(1), z.maxLength(200)))
  .check(
    z.describe(
      'Any unique string per intended action; a retry with the same key returns the first result instead of acting twice',
    ),
  )

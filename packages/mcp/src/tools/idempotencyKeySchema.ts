import { z } from 'zod'

/** The key a model reuses when it retries a tool that moves value, so the action happens once. */
export const idempotencyKeySchema = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe(
    'Any unique string per intended action; a retry with the same key returns the first result instead of acting twice',
  )

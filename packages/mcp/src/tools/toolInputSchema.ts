import type { OperationContract as OperationDeclaration } from '@agentwallet/core/contract'
import * as z from 'zod/mini'
import { idempotencyKeySchema } from './idempotencyKeySchema.js'

/**
 * What a tool takes: the operation's own input (strict: a typo must not move money), plus
 * `idempotencyKey` when the operation takes one.
 * @example toolInputSchema(operations.send).parse({ wallet, to, value: '0.1', idempotencyKey: 'pay-1' })
 */
export function toolInputSchema(operation: OperationDeclaration): z.ZodMiniType<Record<string, unknown>> {
  const { input } = operation
  if (!(input instanceof z.ZodMiniObject)) {
    throw new TypeError(`Operation ${operation.name} must take an object to be offered as a tool`)
  }
  // safeExtend keeps the input's refinements (send refuses `token` together with `data`).
  return operation.idempotent ? z.safeExtend(input, { idempotencyKey: idempotencyKeySchema }) : input
}

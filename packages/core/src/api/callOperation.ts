import { isDeepStrictEqual } from 'node:util'
import type { z } from 'zod'
import { isTransportError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError, isAgentWalletError } from '../errors/baseError.js'
import { ChainUnavailableError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { type CallOptions, commonErrors } from '../schemas/defineContract.js'
import { parseInput } from '../schemas/parseInput.js'
import { assertFamilyServed } from './assertFamilyServed.js'
import { authorize } from './authorize.js'
import type { OperationDeclaration } from './defineOperation.js'

/**
 * Runs one operation for a principal, the same way for every entry point (session, HTTP, tools):
 * refuse a caller the declaration does not name (`forbidden`), parse the input (`validation_failed`),
 * run its action, and answer only what the output schema declares.
 *
 * With `ctx.options.checkOperations` (tests), a declaration that does not match what its action
 * does fails loudly: an answer that breaks or overflows the output schema, or an error code the
 * operation does not declare, becomes an `internal` error naming the mismatch.
 * @example const { wallet } = await callOperation(ctx, principal, operations.createWallet, { agentName: 'a' })
 */
export async function callOperation<TOperation extends OperationDeclaration>(
  ctx: AgentWalletContext,
  principal: Principal,
  operation: TOperation,
  input: unknown,
  options: CallOptions = {},
): Promise<z.output<TOperation['output']>> {
  authorize(principal, operation)
  const parsed = parseInput(operation.input, input ?? {}) as z.output<TOperation['input']>
  const check = ctx.options.checkOperations
  let answer: unknown
  try {
    await assertFamilyServed(ctx, principal, operation, parsed)
    answer = await operation.action(ctx, principal, parsed, operation.idempotent ? options : {})
  } catch (error) {
    const thrown = unclassifiedChainFault(error) ?? error
    if (check) assertDeclaredError(operation, thrown)
    throw thrown
  }
  const result = operation.output.safeParse(answer)
  if (check) assertDeclaredOutput(operation, answer, result)
  // A completed action is never turned into a failure here: its effects are already committed.
  return (result.success ? result.data : answer) as z.output<TOperation['output']>
}

/**
 * A node fault (unreachable, timed out, rate limiting) that reached here as viem's own error, from a
 * read no action wrapped in `toChainError`: still `chain_unavailable` (retry later), never `internal`.
 */
function unclassifiedChainFault(error: unknown): BaseError | undefined {
  if (isAgentWalletError(error) || !isTransportError(error)) return undefined
  return new ChainUnavailableError(undefined, { cause: error })
}

function assertDeclaredError(operation: OperationDeclaration, error: unknown): void {
  const code = isAgentWalletError(error) ? error.code : undefined
  const declared: readonly string[] = [...commonErrors, ...operation.errors]
  if (code !== undefined && declared.includes(code)) return
  const what = code === undefined ? 'an error without a code' : `${code}, which it does not declare`
  throw new BaseError('internal', `${operation.name} failed with ${what}`, {
    details: { operation: operation.name, code },
    cause: error,
  })
}

function assertDeclaredOutput(
  operation: OperationDeclaration,
  answer: unknown,
  result: ReturnType<OperationDeclaration['output']['safeParse']>,
): void {
  if (!result.success) {
    throw new BaseError('internal', `${operation.name} answered outside its output schema`, {
      details: { operation: operation.name, issues: result.error.issues.slice(0, 5) },
    })
  }
  if (!isDeepStrictEqual(withoutUndefined(result.data), withoutUndefined(answer))) {
    throw new BaseError('internal', `${operation.name} answered fields its output schema does not declare`, {
      details: { operation: operation.name },
    })
  }
}

/** JSON equality: key order and `undefined` members do not count. */
function withoutUndefined(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null, (_key, member) => sortKeys(member)))
}

function sortKeys(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)))
}

import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import type { CallOptions } from '../schemas/defineContract.js'
import { callOperation } from './callOperation.js'
import type { OperationDeclaration } from './defineOperation.js'
import { type OperationName, type OperationNamed, operationList } from './operations.js'

/** A session method: the operation's input (optional when every field is), answering its output. */
export type OperationMethod<TOperation extends OperationDeclaration> =
  // biome-ignore lint/complexity/noBannedTypes: "every input field is optional" is `{} extends Input`
  {} extends z.input<TOperation['input']>
    ? (input?: z.input<TOperation['input']>, options?: CallOptions) => Promise<z.output<TOperation['output']>>
    : (input: z.input<TOperation['input']>, options?: CallOptions) => Promise<z.output<TOperation['output']>>

/** One method per declared operation, named after it. */
export type OperationMethods = { [N in OperationName]: OperationMethod<OperationNamed<N>> }

/**
 * Binds every declared operation to `ctx` and `principal`: each method authorizes, validates, runs
 * the action and answers the declared output (see `callOperation`).
 * @example const { wallet } = await operationMethods(ctx, principal).createWallet({ agentName: 'a' })
 */
export function operationMethods(ctx: AgentWalletContext, principal: Principal): OperationMethods {
  const methods: Record<string, unknown> = {}
  for (const operation of operationList) {
    methods[operation.name] = (input?: unknown, options?: CallOptions) =>
      callOperation(ctx, principal, operation as OperationDeclaration, input, options)
  }
  return methods as OperationMethods
}

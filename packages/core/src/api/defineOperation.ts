import type * as z from 'zod/mini'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import type { CallOptions, OperationContract } from '../schemas/defineContract.js'

/**
 * The function that does an operation's work (in its domain folder), given input its schema has
 * already parsed, answering its output.
 */
export type OperationAction<
  TInput extends z.ZodMiniType = z.ZodMiniType,
  TOutput extends z.ZodMiniType = z.ZodMiniType,
> = (
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<TInput>,
  options: CallOptions,
) => Promise<z.input<TOutput>>

/**
 * One operation of the API: its contract (the zod-only declaration beside its action) bound to the
 * action that does the work. The session and the HTTP routes run it; OpenAPI, the client and the
 * agent tools read the contract alone.
 */
export type OperationDeclaration<
  TName extends string = string,
  TInput extends z.ZodMiniObject = z.ZodMiniObject,
  TOutput extends z.ZodMiniType = z.ZodMiniType,
> = OperationContract<TName, TInput, TOutput> & {
  /** The action that does the work. */
  action: OperationAction<TInput, TOutput>
}

/**
 * Binds a contract to its action: the one line an operation adds to core's table.
 * @example bindOperation(walletContract.getWallet, getWallet)
 */
export function bindOperation<TContract extends OperationContract>(
  contract: TContract,
  action: OperationAction<TContract['input'], TContract['output']>,
): TContract & { action: OperationAction<TContract['input'], TContract['output']> } {
  return { ...contract, action }
}

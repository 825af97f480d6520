import { parseInput } from '@agentwallet/core'
import type { z } from 'zod'

/**
 * A framework-neutral tool: a name, what it does (for the model), its zod input (the schemas the
 * HTTP API validates with) and a handler that validates raw input and returns JSON-ready data.
 * Handlers throw errors carrying a `code` (`policy_blocked`, `validation_failed`, …).
 */
export type AgentWalletTool = {
  name: string
  title: string
  description: string
  inputSchema: z.ZodType
  /** True when the tool only reads: no value moves, nothing is stored. */
  readOnly: boolean
  handler(input: unknown): Promise<unknown>
}

/**
 * Declares a tool whose `run` receives input already parsed by `inputSchema` (or `validation_failed`).
 * @example defineTool({ name: 'list_wallets', title: 'List wallets', description: '…', inputSchema: z.strictObject({}), readOnly: true, run: () => backend.listWallets() })
 */
export function defineTool<TSchema extends z.ZodType>(
  spec: Omit<AgentWalletTool, 'handler' | 'inputSchema'> & {
    inputSchema: TSchema
    run(input: z.output<TSchema>): Promise<unknown>
  },
): AgentWalletTool {
  const { run, ...tool } = spec
  // A model that calls a tool without arguments sends nothing at all; that is an empty object.
  return { ...tool, handler: async (input) => run(parseInput(spec.inputSchema, input ?? {})) }
}

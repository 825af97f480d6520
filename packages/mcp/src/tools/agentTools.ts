import {
  type OperationContract as OperationDeclaration,
  parseInput,
  toolNameOf,
} from '@agentwallet/core/contract'
import type * as z from 'zod/mini'
import type { AgentWalletBackend } from '../backend/agentWalletBackend.js'
import { type JsonObjectSchema, toJsonObjectSchema } from './toJsonObjectSchema.js'
import { type ToolAnnotations, toolAnnotations } from './toolAnnotations.js'
import { toolInputSchema } from './toolInputSchema.js'
import { toolOperations } from './toolOperations.js'
import { toolOutputSchema } from './toolOutputSchema.js'
import { withApprovalInstructions } from './withApprovalInstructions.js'

/**
 * A framework-neutral agent tool, derived from one operation of core's table: what the MCP server
 * and the framework adapters (AI SDK, LangChain, OpenAI Agents) all serve.
 */
export type AgentTool = {
  /** snake_case of the operation's name (`create_wallet`). */
  name: string
  description: string
  operation: OperationDeclaration
  /** The arguments: the operation's input, plus `idempotencyKey` when it takes one. */
  inputSchema: z.ZodMiniType<Record<string, unknown>>
  /** The same as JSON Schema, for models and MCP's `tools/list`. */
  inputJsonSchema: JsonObjectSchema
  /** JSON Schema of what `handler` answers (MCP's `outputSchema`). */
  outputJsonSchema: JsonObjectSchema
  annotations: ToolAnnotations
  /** Validates the arguments and calls the operation; throws errors that carry a `code`. */
  handler(input: unknown): Promise<Record<string, unknown>>
}

/**
 * Every agent tool over `backend`: one per operation declared `tool: true`, with no code of its own.
 * An answer waiting for a human carries `howToApprove`.
 * @example
 * const tools = agentTools(inProcessBackend({ session: aw.as(agentPrincipal) }))
 * const { wallet } = await tools.find((tool) => tool.name === 'create_wallet')!.handler({ agentName: 'bot' })
 */
export function agentTools(backend: AgentWalletBackend): AgentTool[] {
  return toolOperations.map((operation) => {
    const inputSchema = toolInputSchema(operation)
    return {
      name: toolNameOf(operation),
      description: operation.description,
      operation,
      inputSchema,
      inputJsonSchema: toJsonObjectSchema(inputSchema, 'input'),
      outputJsonSchema: toolOutputSchema(operation),
      annotations: toolAnnotations(operation),
      async handler(input) {
        // A model that calls a tool without arguments sends nothing at all; that is an empty object.
        const raw = input ?? {}
        parseInput(inputSchema, raw)
        // The backend validates again where the operation runs; it gets the fields as the model sent them.
        const { idempotencyKey, ...fields } = raw as Record<string, unknown>
        const answer = await backend.call(operation.name, fields, {
          idempotencyKey: idempotencyKey as string | undefined,
        })
        // JSON, as over the wire: in-process answers may hold `undefined` members a schema check refuses.
        return withApprovalInstructions(JSON.parse(JSON.stringify(answer)), backend.approvals)
      },
    }
  })
}

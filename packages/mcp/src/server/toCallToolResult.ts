import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { ToolError } from '../tools/toToolError.js'

/**
 * A tool's answer as an MCP result: `structuredContent` (it conforms to the tool's `outputSchema`)
 * and the same object as JSON text, for clients that read only text.
 * @example toCallToolResult({ count: 1, wallets })
 */
export function toCallToolResult(answer: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: toJson(answer) }], structuredContent: answer }
}

/**
 * A failed tool call: `isError` with `{ error: { code, message, details } }` as text, so the model
 * can act on the code. No `structuredContent`: it would have to match the success `outputSchema`.
 * @example toErrorResult({ code: 'policy_blocked', message: 'Blocked by max_per_tx' })
 */
export function toErrorResult(error: ToolError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: toJson({ error }) }] }
}

function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'null'
}

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { ToolError } from '../tools/toToolError.js'

/**
 * A tool's return value as an MCP result: JSON text for any client, the same object as structured content.
 * @example toCallToolResult({ count: 1, wallets })
 */
export function toCallToolResult(value: unknown): CallToolResult {
  const structured = isRecord(value) ? { structuredContent: value } : {}
  return { content: [{ type: 'text', text: toJson(value) }], ...structured }
}

/**
 * A failed tool call: `isError` with `{ error: { code, message, details } }`, so the model can act on the code.
 * @example toErrorResult({ code: 'policy_blocked', message: 'Blocked by max_per_tx' })
 */
export function toErrorResult(error: ToolError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: toJson({ error }) }], structuredContent: { error } }
}

function toJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? item.toString() : item), 2) ?? 'null'
  )
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

import { ForbiddenError, type Operation, type OperationName, operationList } from '@agentwallet/core'

/** The operations agents are offered as tools: those the table declares `tool: true`, in its order. */
export const toolOperations: readonly Operation[] = operationList.filter((operation) => operation.tool)

const toolNames = new Set<string>(toolOperations.map((operation) => operation.name))

/**
 * Refuses (`forbidden`) an operation that is not offered as a tool, so a backend reaches nothing
 * else (approve, policy changes, keys) whoever calls it.
 * @example assertToolOperation('send')
 */
export function assertToolOperation(name: string): asserts name is OperationName {
  if (toolNames.has(name)) return
  throw new ForbiddenError(`${name} is not offered to agents as a tool`, { details: { operation: name } })
}

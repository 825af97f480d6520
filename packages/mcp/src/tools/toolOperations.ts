import { type Contract, type ContractName, contractList, ForbiddenError } from '@agentwallet/core/contract'

/** The operations agents are offered as tools: those the table declares `tool: true`, in its order. */
export const toolOperations: readonly Contract[] = contractList.filter((operation) => operation.tool)

const toolNames = new Set<string>(toolOperations.map((operation) => operation.name))

/**
 * Refuses (`forbidden`) an operation that is not offered as a tool, so a backend reaches nothing
 * else (approve, policy changes, keys) whoever calls it.
 * @example assertToolOperation('send')
 */
export function assertToolOperation(name: string): asserts name is ContractName {
  if (toolNames.has(name)) return
  throw new ForbiddenError(`${name} is not offered to agents as a tool`, { details: { operation: name } })
}

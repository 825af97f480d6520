import type { OperationContract as OperationDeclaration } from '@agentwallet/core/contract'

/** MCP's tool annotations (hints a host uses to decide what to confirm with its user). */
export type ToolAnnotations = {
  title: string
  /** A GET: reads only. */
  readOnlyHint: boolean
  /** It can move value (sign and send a transaction that spends or pays gas). */
  destructiveHint: boolean
  /** A repeat has no further effect: a read, or a write that takes an idempotency key (reused on retry). */
  idempotentHint: boolean
  /** It reads or writes a chain, outside this service. */
  openWorldHint: boolean
}

/**
 * The annotations of the tool of `operation`, from its declaration alone.
 * @example toolAnnotations(operations.send) // { readOnlyHint: false, destructiveHint: true, … }
 */
export function toolAnnotations(operation: OperationDeclaration): ToolAnnotations {
  const reads = operation.http.method === 'get'
  return {
    title: titleOf(operation.name),
    readOnlyHint: reads,
    destructiveHint: operation.movesValue,
    idempotentHint: reads || operation.idempotent,
    // The declared chain errors say the operation reaches a chain.
    openWorldHint: operation.errors.includes('chain_unavailable'),
  }
}

/** `getEnsRegistration` → `Get ens registration`. */
function titleOf(name: string): string {
  const words = name.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`)
  return words.charAt(0).toUpperCase() + words.slice(1)
}

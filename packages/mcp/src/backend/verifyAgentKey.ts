import type { OperationMethods } from '@agentwallet/client'
import { ForbiddenError } from '@agentwallet/core/contract'

/**
 * Resolves when the client's key has role `agent` (`whoAmI`); refuses an admin or approver key with
 * `forbidden`: the tools act as an agent, on its own wallets only.
 * @example await verifyAgentKey(client)
 */
export async function verifyAgentKey(client: Pick<OperationMethods, 'whoAmI'>): Promise<void> {
  const { role } = await client.whoAmI()
  if (role !== 'agent') throw refused(role)
}

function refused(role: string): ForbiddenError {
  return new ForbiddenError(
    `The agent tools act as an agent: this is an ${role} key, use an API key with role "agent"`,
    { details: { role } },
  )
}

import { agentIdSchema, identityQuerySchema, registerIdentitySchema } from '@agentwallet/core'
import { z } from 'zod'
import type { AgentWalletBackend } from '../backend/agentWalletBackend.js'
import { type AgentWalletTool, defineTool } from './defineTool.js'
import { idempotencyKeySchema } from './idempotencyKeySchema.js'

/**
 * ERC-8004 agent identities: register one for a wallet, read one from chain, list this agent's.
 * @example const [register, get, list] = identityTools(backend)
 */
export function identityTools(backend: AgentWalletBackend): AgentWalletTool[] {
  return [
    defineTool({
      name: 'register_identity',
      title: 'Register identity',
      description:
        "Register an ERC-8004 agent identity (an NFT in the identity registry) for one of this agent's wallets, with a registration file naming the agent, its type, capabilities and service endpoints. Pays gas through the wallet's policy (policy_blocked if refused). Resolves once mined with the agentId.",
      inputSchema: registerIdentitySchema.extend({ idempotencyKey: idempotencyKeySchema }),
      readOnly: false,
      run: ({ idempotencyKey, ...parameters }) => backend.registerIdentity(parameters, { idempotencyKey }),
    }),
    defineTool({
      name: 'get_identity',
      title: 'Read identity',
      description:
        'An ERC-8004 identity by agentId, read from chain: owner, agent wallet, registration file (name, capabilities, services), status, and a verifiable proof of ownership.',
      inputSchema: identityQuerySchema.extend({
        agentId: agentIdSchema.describe('The agentId, a decimal integer'),
      }),
      readOnly: true,
      run: ({ agentId, ...query }) => backend.getIdentity(agentId.toString(), query),
    }),
    defineTool({
      name: 'list_identities',
      title: 'List identities',
      description: "The ERC-8004 identities registered for this agent's wallets.",
      inputSchema: z.strictObject({}),
      readOnly: true,
      run: () => backend.listIdentities(),
    }),
  ]
}

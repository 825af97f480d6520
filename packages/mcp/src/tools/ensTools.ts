import { checkEnsOptionsSchema, registerEnsSchema, resolveEnsOptionsSchema } from '@agentwallet/core'
import { z } from 'zod'
import type { AgentWalletBackend } from '../backend/agentWalletBackend.js'
import { type AgentWalletTool, defineTool } from './defineTool.js'
import { idempotencyKeySchema } from './idempotencyKeySchema.js'

const nameSchema = z.string().max(255)

/**
 * ENS: check a .eth name's availability and price, resolve a name, register one (commit/reveal), follow a registration.
 * @example const [check, resolve, register, status] = ensTools(backend)
 */
export function ensTools(backend: AgentWalletBackend): AgentWalletTool[] {
  return [
    defineTool({
      name: 'check_ens_name',
      title: 'Check ENS name',
      description:
        'Whether a .eth name (at least 3 characters) is valid and available, and its rent for `years` (default 1) in ETH and wei. An invalid name fails with validation_failed.',
      inputSchema: z.strictObject({
        name: nameSchema.describe('e.g. "my-agent.eth"'),
        ...checkEnsOptionsSchema.shape,
      }),
      readOnly: true,
      run: ({ name, ...options }) => backend.checkEnsName(name, options),
    }),
    defineTool({
      name: 'resolve_ens_name',
      title: 'Resolve ENS name',
      description:
        'The address an ENS name resolves to (registry → resolver); not_found when it resolves to nothing.',
      inputSchema: resolveEnsOptionsSchema.extend({ name: nameSchema }),
      readOnly: true,
      run: ({ name, ...options }) => backend.resolveEnsName(name, options),
    }),
    defineTool({
      name: 'register_ens_name',
      title: 'Register ENS name',
      description:
        "Register a .eth name to one of this agent's wallets by commit/reveal (the wallet pays rent and gas through its policy). Returns the registration operation at once (status committing → committed → registering → registered | failed); follow it with get_ens_registration.",
      inputSchema: z.strictObject({ ...registerEnsSchema.shape, idempotencyKey: idempotencyKeySchema }),
      readOnly: false,
      run: ({ idempotencyKey, ...parameters }) => backend.registerEnsName(parameters, { idempotencyKey }),
    }),
    defineTool({
      name: 'get_ens_registration',
      title: 'ENS registration status',
      description:
        'One ENS registration operation by id: its status, transactions and, once registered, the expiry.',
      inputSchema: z.strictObject({ registrationId: z.string().min(1).max(100) }),
      readOnly: true,
      run: ({ registrationId }) => backend.getEnsRegistration(registrationId),
    }),
  ]
}

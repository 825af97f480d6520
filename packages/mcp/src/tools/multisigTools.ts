import { addressSchema, confirmSafeSchema, getSafeSchema, proposeSafeSchema } from '@agentwallet/core'
import { z } from 'zod'
import type { AgentWalletBackend } from '../backend/agentWalletBackend.js'
import { type AgentWalletTool, defineTool } from './defineTool.js'
import { idempotencyKeySchema } from './idempotencyKeySchema.js'

const safeSchema = addressSchema.describe('The Safe (multisig) address')
const [byOwner, bySignature] = confirmSafeSchema.options

/**
 * Safe multisig: read a Safe, propose a transaction, confirm one (executing it at the threshold).
 * @example const [getSafe, propose, confirm] = multisigTools(backend)
 */
export function multisigTools(backend: AgentWalletBackend): AgentWalletTool[] {
  return [
    defineTool({
      name: 'get_safe',
      title: 'Read Safe',
      description:
        'A Safe multisig: owners, threshold and nonce read from chain, and its pending proposals with their safeTxHash and confirmations.',
      inputSchema: getSafeSchema.extend({ safe: safeSchema }),
      readOnly: true,
      run: ({ safe, ...query }) => backend.getSafe(safe, query),
    }),
    defineTool({
      name: 'propose_safe_transaction',
      title: 'Propose Safe transaction',
      description:
        "Propose a transaction from a Safe (to, value in native units, optional data): computes the safeTxHash and signs it with `from`, one of this agent's wallets that owns the Safe. Other owners confirm it with confirm_safe_transaction.",
      inputSchema: proposeSafeSchema.extend({ safe: safeSchema, idempotencyKey: idempotencyKeySchema }),
      readOnly: false,
      run: ({ safe, idempotencyKey, ...parameters }) =>
        backend.proposeSafeTransaction(safe, parameters, { idempotencyKey }),
    }),
    defineTool({
      name: 'confirm_safe_transaction',
      title: 'Confirm Safe transaction',
      description:
        "Confirm a proposal by safeTxHash, either as `from` (this agent's wallet that owns the Safe) or with an outside owner's 65-byte `signature` — exactly one of them. Reaching the threshold executes it on chain (through the paying wallet's policy) and returns the hash.",
      // Both ways to confirm as one flat object (MCP clients want an object schema); core checks exactly one.
      inputSchema: z.strictObject({
        safe: safeSchema,
        ...byOwner.shape,
        from: byOwner.shape.from.optional(),
        signature: bySignature.shape.signature.optional(),
        idempotencyKey: idempotencyKeySchema,
      }),
      readOnly: false,
      run: ({ safe, idempotencyKey, ...parameters }) =>
        backend.confirmSafeTransaction(
          safe,
          parameters as Parameters<AgentWalletBackend['confirmSafeTransaction']>[1],
          { idempotencyKey },
        ),
    }),
  ]
}

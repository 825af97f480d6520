import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { type IdempotencyOptions, withIdempotency } from '../idempotency/withIdempotency.js'
import { runOperationUntil } from '../operations/backgroundOperations.js'
import type { Principal } from '../principals/types.js'
import { toApprovalSummary } from '../transactions/approvalSummary.js'
import { findWallet } from '../wallets/findWallet.js'
import { requireAccountWallet } from '../wallets/requireAccountWallet.js'
import { identityRegistration } from './identityRegistration.js'
import { identityRegistryOf } from './identityRegistryOf.js'
import type { registerIdentityAnswerSchema, registerIdentitySchema } from './identitySchemas.js'
import { type IdentityRecord, toIdentity, toIdentityRegistration } from './types.js'

/** The identity when every step ran at once; the paused registration (and its approval) otherwise. */
export type RegisterIdentityReturnType = z.infer<typeof registerIdentityAnswerSchema>

/**
 * Registers the wallet's agent in the chain's ERC-8004 Identity Registry as a tracked operation
 * (collection `identities`): mint (owner pays, through the policy engine) → write the registration
 * file with its agentId as a `data:` agentURI → bind the agent wallet with its EIP-712 signature when
 * the registry has not bound it already → `registered` and `identity.registered` in one commit.
 * Without approvals it all runs in the request and returns the identity. When a step pauses for a
 * human, it returns `pending_approval` with the approval and the registration (`awaiting_approval`),
 * and the remaining steps run in the background once the paused one confirms; each later step goes
 * through the policy again (it may pause too). A rejected or expired approval ends it `failed`.
 * Unfinished registrations resume at start.
 * @example const { identity } = await registerIdentity(ctx, principal, { wallet, agentName: 'trader', agentType: 'trading' })
 */
export async function registerIdentity(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof registerIdentitySchema>,
  options: IdempotencyOptions = {},
): Promise<RegisterIdentityReturnType> {
  return withIdempotency(ctx, principal, 'identity.create', input, options, () =>
    startRegistration(ctx, principal, input),
  )
}

async function startRegistration(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof registerIdentitySchema>,
): Promise<RegisterIdentityReturnType> {
  const wallet = requireAccountWallet(await findWallet(ctx, principal, input.wallet), 'register an identity')
  const owner = input.owner
    ? requireAccountWallet(await findWallet(ctx, principal, input.owner), 'own an identity')
    : wallet
  const chain = ctx.chains.get(input.chain ?? wallet.chain)
  const registry = identityRegistryOf(chain)
  const now = ctx.now().toISOString()
  const record: IdentityRecord = {
    id: ctx.newId('idn'),
    tenantId: wallet.tenantId,
    walletId: wallet.id,
    ownerId: wallet.ownerId,
    ownerWalletId: owner.id,
    requestedBy: { id: principal.id, role: principal.role },
    chain: chain.name,
    chainId: chain.chainId,
    registry,
    walletAddress: wallet.address,
    ownerAddress: owner.address,
    agentName: input.agentName,
    agentType: input.agentType,
    description: input.description,
    capabilities: input.capabilities ?? [],
    services: input.services ?? [],
    status: 'registering',
    step: 'register',
    transactions: {},
    hashes: {},
    createdAt: now,
    updatedAt: now,
  }
  await ctx.storage.transaction([], (tx) => tx.insert('identities', record))

  // One operation per registration: the request waits for its first outcome (registered, paused,
  // failed); a paused registration goes on waiting for the approver in the background.
  const outcome = await runOperationUntil(
    ctx,
    identityRegistration,
    record.id,
    (current) => current.status === 'awaiting_approval',
  )
  if (outcome?.status === 'registered') return { status: 'registered', identity: toIdentity(outcome) }
  if (outcome?.status === 'awaiting_approval' && outcome.approvalId) {
    const approval = await ctx.storage.get('approvals', outcome.approvalId)
    if (approval) {
      return {
        status: 'pending_approval',
        approval: toApprovalSummary(approval),
        identity: toIdentityRegistration(outcome),
      }
    }
  }
  throw new BaseError('internal', 'The registration stopped before its first outcome; it resumes at start', {
    details: { registrationId: record.id, status: outcome?.status, step: outcome?.step },
  })
}

import type { Address } from 'viem'
import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import { NotFoundError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { withLock } from '../storage/withLock.js'
import { settleProposal } from './executeProposal.js'
import { locateSafe, proposalLockKey } from './locateSafe.js'
import type { getSafeSchema } from './multisigSchemas.js'
import { type SafeProposalView, toProposalView } from './proposalView.js'
import { readSafe } from './readSafe.js'

export type GetSafeReturnType = {
  address: Address
  chain: string
  owners: Address[]
  threshold: number
  nonce: string
  /** True when this service deployed it (a `multisig_wallets` record exists). */
  managed: boolean
  /** Proposals of the caller's tenant still collecting signatures or being executed, by nonce. */
  pendingProposals: SafeProposalView[]
}

/**
 * A Safe's owners, threshold and nonce (from chain) and its tenant's pending proposals. An agent
 * sees a Safe only when one of its own wallets is an owner (another's is `not_found`).
 * @example const { safe } = await getSafe(ctx, principal, { safe: address })
 */
export async function getSafe(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof getSafeSchema>,
): Promise<{ safe: GetSafeReturnType }> {
  const { safe, chain, record } = await locateSafe(ctx, principal, input.safe, input.chain)
  const state = await readSafe(chain, safe)
  if (principal.role === 'agent' && !(await ownsAnOwner(ctx, principal, state.owners)))
    throw new NotFoundError('Safe', { details: { safe, chain: chain.name } })
  const open = await ctx.storage.query('multisig_proposals', {
    where: {
      tenantId: principal.tenantId,
      safeAddress: safe,
      chain: chain.name,
      status: ['pending', 'executing'],
    },
    orderBy: 'createdAt',
  })
  const settled = await Promise.all(
    open.map((proposal) =>
      proposal.status === 'executing'
        ? withLock(ctx.storage, [proposalLockKey(safe, proposal.safeTxHash)], async () => {
            const latest = (await ctx.storage.get('multisig_proposals', proposal.id)) ?? proposal
            return settleProposal(ctx, chain, latest)
          })
        : proposal,
    ),
  )
  const pending = settled
    .filter(
      (proposal) =>
        (proposal.status === 'pending' || proposal.status === 'executing') &&
        BigInt(proposal.tx.nonce) >= state.nonce,
    )
    .sort((a, b) =>
      BigInt(a.tx.nonce) < BigInt(b.tx.nonce) ? -1 : BigInt(a.tx.nonce) > BigInt(b.tx.nonce) ? 1 : 0,
    )
  return {
    safe: {
      address: safe,
      chain: chain.name,
      owners: state.owners,
      threshold: state.threshold,
      nonce: state.nonce.toString(),
      managed: record !== undefined,
      pendingProposals: pending.map(toProposalView),
    },
  }
}

/** Whether one of the agent's own wallets is among `owners`. */
async function ownsAnOwner(ctx: AgentWalletContext, principal: Principal, owners: readonly Address[]) {
  const mine = await ctx.storage.count('wallets', {
    where: { tenantId: principal.tenantId, ownerId: principal.id, address: [...owners] },
  })
  return mine > 0
}

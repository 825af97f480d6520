import type { Address } from 'viem'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { parseInput } from '../schemas/parseInput.js'
import { withLock } from '../storage/withLock.js'
import { settleProposal } from './executeProposal.js'
import { locateSafe, proposalLockKey } from './locateSafe.js'
import { type GetSafeParameters, getSafeSchema } from './multisigSchemas.js'
import type { SafeProposalRecord } from './multisigTypes.js'
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
 * A Safe's owners, threshold and nonce (from chain) and its tenant's pending proposals.
 * @example const { owners, threshold, pendingProposals } = await getSafe(ctx, principal, safe)
 */
export async function getSafe(
  ctx: AgentWalletContext,
  principal: Principal,
  safeAddress: string,
  parameters: GetSafeParameters = {},
): Promise<GetSafeReturnType> {
  const input = parseInput(getSafeSchema, parameters)
  const { safe, chain, record } = await locateSafe(ctx, principal, safeAddress, input.chain)
  const state = await readSafe(chain, safe)
  const open = await ctx.storage.query<SafeProposalRecord>('multisig_proposals', {
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
            const latest =
              (await ctx.storage.get<SafeProposalRecord>('multisig_proposals', proposal.id)) ?? proposal
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
    address: safe,
    chain: chain.name,
    owners: state.owners,
    threshold: state.threshold,
    nonce: state.nonce.toString(),
    managed: record !== undefined,
    pendingProposals: pending.map(toProposalView),
  }
}

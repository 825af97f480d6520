import { appendAudit } from '../audit/appendAudit.js'
import { typedDataSigned } from '../audit/typedDataSigned.js'
import type { AgentWalletContext } from '../context.js'
import type { StorageTx } from '../storage/types.js'
import type { SafeProposalRecord } from './multisigTypes.js'
import { safeTxTypedData } from './safeTransaction.js'

/**
 * Records, in the commit that saves it, a managed owner's vault signature of `proposal`'s SafeTx
 * (its digest is the safeTxHash).
 * @example auditSafeSignature(ctx, tx, proposal, { walletId: wallet.id, address: wallet.address }, 'safe_proposal')
 */
export function auditSafeSignature(
  ctx: AgentWalletContext,
  tx: StorageTx,
  proposal: SafeProposalRecord,
  owner: { walletId?: string | undefined; address: string },
  signedFor: 'safe_proposal' | 'safe_confirmation',
): void {
  appendAudit(ctx, tx, proposal.tenantId, {
    kind: 'vault.signature',
    subjects: { walletId: owner.walletId, keyId: owner.address },
    payload: {
      ...typedDataSigned(safeTxTypedData(proposal.chainId, proposal.safeAddress, proposal.tx)),
      for: signedFor,
      proposalId: proposal.id,
    },
  })
}

import type { Hex } from 'viem'
import type { z } from 'zod'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { ConflictError, ForbiddenError, NotFoundError } from '../errors/errors.js'
import { type IdempotencyOptions, withIdempotency } from '../idempotency/withIdempotency.js'
import type { Principal } from '../principals/types.js'
import { withLock } from '../storage/withLock.js'
import { toApprovalSummary } from '../transactions/approvalSummary.js'
import { viewOf } from '../transactions/sendAnswer.js'
import type { SubmitResult } from '../transactions/submitIntent.js'
import { waitForFinalStatus } from '../transactions/waitForTransaction.js'
import { findWallet } from '../wallets/findWallet.js'
import { requireAccountWallet } from '../wallets/requireAccountWallet.js'
import type { WalletRecord } from '../wallets/types.js'
import { auditSafeSignature } from './auditSafeSignature.js'
import { executeIfReady, ownerSignatures, settleProposal } from './executeProposal.js'
import { locateSafe, proposalLockKey } from './locateSafe.js'
import type { confirmSafeSchema, safeProposalAnswerSchema } from './multisigSchemas.js'
import type { SafeProposalRecord, SafeSignature } from './multisigTypes.js'
import { toProposalView } from './proposalView.js'
import { isOwner, readSafe } from './readSafe.js'
import { recoverSafeSigner } from './recoverSafeSigner.js'
import { signSafeTx, signsSafeTxWithKey } from './signSafeTx.js'

export type ConfirmSafeTransactionReturnType = z.infer<typeof safeProposalAnswerSchema>

/**
 * Adds an owner's signature to a proposal — a managed owner's (`wallet`, signed by the vault) or an
 * outside owner's (`signature`, its signer recovered and checked against the Safe's owners on chain
 * before it is stored); a non-owner is `forbidden`. At threshold it sends `execTransaction` through
 * the money path from the confirming managed wallet (else the proposer) and resolves once mined:
 * `executed` only with ExecutionSuccess in the receipt. Confirming twice is harmless.
 * @example await confirmSafeTransaction(ctx, principal, { safe, safeTxHash, wallet: owner2 })
 */
export async function confirmSafeTransaction(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof confirmSafeSchema>,
  options: IdempotencyOptions = {},
): Promise<ConfirmSafeTransactionReturnType> {
  return withIdempotency(ctx, principal, 'multisig.confirm', input, options, () =>
    confirm(ctx, principal, input),
  )
}

async function confirm(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof confirmSafeSchema>,
): Promise<ConfirmSafeTransactionReturnType> {
  const managed = input.wallet
    ? requireAccountWallet(await findWallet(ctx, principal, input.wallet), 'sign for a Safe')
    : undefined
  const { safe, chain } = await locateSafe(ctx, principal, input.safe, input.chain, managed?.chain)
  const outcome = await withLock(ctx.storage, [proposalLockKey(safe, input.safeTxHash)], async () => {
    let proposal = await findProposal(ctx, principal, safe, input.safeTxHash)
    proposal = await settleProposal(ctx, chain, proposal)
    if (proposal.status !== 'pending') {
      throw new ConflictError(`The proposal is ${proposal.status}: it takes no more confirmations`, {
        details: { proposalId: proposal.id, status: proposal.status },
      })
    }
    const state = await readSafe(chain, safe)
    const entry = managed
      ? await managedSignature(ctx, principal, chain, proposal, managed)
      : await externalSignature(ctx, principal, proposal, input.signature as Hex)
    if (!isOwner(state.owners, entry.owner)) {
      throw new ForbiddenError('The signer is not an owner of this Safe', {
        details: { reason: 'not_owner', safe, signer: entry.owner },
      })
    }
    if (!proposal.signatures.some((existing) => existing.owner.toLowerCase() === entry.owner.toLowerCase())) {
      proposal = {
        ...proposal,
        signatures: [...proposal.signatures, entry],
        updatedAt: ctx.now().toISOString(),
      }
      const saved = proposal
      await ctx.storage.transaction([], async (tx) => {
        await tx.put('multisig_proposals', saved)
        if (entry.source === 'managed' && managed && signsSafeTxWithKey(managed))
          auditSafeSignature(
            ctx,
            tx,
            saved,
            { walletId: entry.walletId, address: entry.owner },
            'safe_confirmation',
          )
      })
    }
    const executor = managed ?? (await proposerWallet(ctx, proposal))
    return executeIfReady(ctx, principal, chain, proposal, state, executor)
  })
  return finishExecution(ctx, chain, outcome)
}

/** Waits for a sent execTransaction and settles the proposal from its receipt; reports where it stands. */
export async function finishExecution(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  outcome: { proposal: SafeProposalRecord; submitted?: SubmitResult | undefined },
): Promise<ConfirmSafeTransactionReturnType> {
  let { proposal } = outcome
  const { submitted } = outcome
  let transaction = submitted?.transaction
  if (submitted && submitted.status !== 'pending_approval') {
    transaction = await waitForFinalStatus(ctx, submitted.transaction.id)
    const current = proposal
    proposal = await withLock(
      ctx.storage,
      [proposalLockKey(current.safeAddress, current.safeTxHash)],
      async () => {
        const latest = (await ctx.storage.get('multisig_proposals', current.id)) ?? current
        return settleProposal(ctx, chain, latest)
      },
    )
  }
  const state = await readSafe(chain, proposal.safeAddress)
  return {
    status: proposal.status,
    proposal: toProposalView(proposal),
    confirmations: ownerSignatures(proposal.signatures, state.owners).length,
    threshold: state.threshold,
    transaction: transaction ? viewOf(ctx, transaction) : null,
    hash: transaction?.hash ?? null,
    ...(submitted?.status === 'pending_approval' ? { approval: toApprovalSummary(submitted.approval) } : {}),
  }
}

async function findProposal(
  ctx: AgentWalletContext,
  principal: Principal,
  safe: string,
  hash: string,
): Promise<SafeProposalRecord> {
  const [proposal] = await ctx.storage.query('multisig_proposals', {
    where: { tenantId: principal.tenantId, safeAddress: safe, safeTxHash: hash },
    limit: 1,
  })
  if (!proposal) throw new NotFoundError('Safe transaction proposal', { details: { safe, safeTxHash: hash } })
  return proposal
}

async function managedSignature(
  ctx: AgentWalletContext,
  principal: Principal,
  chain: ChainHandle,
  proposal: SafeProposalRecord,
  wallet: WalletRecord,
): Promise<SafeSignature> {
  const existing = proposal.signatures.find(
    (entry) => entry.owner.toLowerCase() === wallet.address.toLowerCase(),
  )
  if (existing) return existing
  const signature = await signSafeTx(ctx, principal, chain, proposal.safeAddress, proposal.tx, wallet)
  return {
    owner: wallet.address,
    signature,
    source: 'managed',
    walletId: wallet.id,
    addedBy: principal.id,
    addedAt: ctx.now().toISOString(),
  }
}

async function externalSignature(
  ctx: AgentWalletContext,
  principal: Principal,
  proposal: SafeProposalRecord,
  given: Hex,
): Promise<SafeSignature> {
  const { owner, signature } = await recoverSafeSigner(proposal.safeTxHash, given)
  return { owner, signature, source: 'external', addedBy: principal.id, addedAt: ctx.now().toISOString() }
}

async function proposerWallet(ctx: AgentWalletContext, proposal: SafeProposalRecord): Promise<WalletRecord> {
  const wallet = await ctx.storage.get('wallets', proposal.proposerWalletId)
  if (!wallet || wallet.tenantId !== proposal.tenantId)
    throw new NotFoundError('Wallet', { details: { walletId: proposal.proposerWalletId } })
  return wallet
}

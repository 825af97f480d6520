import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import { ConflictError, ForbiddenError } from '../errors/errors.js'
import { appendEvent } from '../events/appendEvent.js'
import { type IdempotencyOptions, withIdempotency } from '../idempotency/withIdempotency.js'
import type { Principal } from '../principals/types.js'
import { withLock } from '../storage/withLock.js'
import { parseAmount } from '../utils/amounts.js'
import { findWallet } from '../wallets/findWallet.js'
import { requireAccountWallet } from '../wallets/requireAccountWallet.js'
import { auditSafeSignature } from './auditSafeSignature.js'
import { type ConfirmSafeTransactionReturnType, finishExecution } from './confirmSafeTransaction.js'
import { executeIfReady } from './executeProposal.js'
import { locateSafe, proposalLockKey } from './locateSafe.js'
import type { proposeSafeSchema } from './multisigSchemas.js'
import type { SafeProposalRecord } from './multisigTypes.js'
import { isOwner, readSafe } from './readSafe.js'
import { newSafeTx, safeTxHash } from './safeTransaction.js'
import { safeTxPayment } from './safeTxPayment.js'
import { screenProposal } from './screenProposal.js'
import { signSafeTx, signsSafeTxWithKey } from './signSafeTx.js'

/**
 * Proposes a Safe transaction: builds the SafeTx at the Safe's current `nonce()`, computes its
 * EIP-712 safeTxHash as Safe does, signs it with the proposing managed owner (`wallet`; a smart wallet
 * approves the hash on chain: `signSafeTx`), stores the
 * proposal and emits `multisig.proposed`. A 1-of-n Safe executes at once. A proposer that is not
 * an owner on chain is `forbidden`.
 * @example const { proposal } = await proposeSafeTransaction(ctx, principal, { safe, wallet, to, value: '0.1' })
 */
export async function proposeSafeTransaction(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof proposeSafeSchema>,
  options: IdempotencyOptions = {},
): Promise<ConfirmSafeTransactionReturnType> {
  return withIdempotency(ctx, principal, 'multisig.propose', input, options, () =>
    propose(ctx, principal, input),
  )
}

async function propose(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof proposeSafeSchema>,
): Promise<ConfirmSafeTransactionReturnType> {
  const wallet = requireAccountWallet(await findWallet(ctx, principal, input.wallet), 'sign for a Safe')
  const { safe, chain } = await locateSafe(ctx, principal, input.safe, input.chain, wallet.chain)
  const state = await readSafe(chain, safe)
  if (!isOwner(state.owners, wallet.address)) {
    throw new ForbiddenError('The proposing wallet is not an owner of this Safe', {
      details: { reason: 'not_owner', safe, wallet: wallet.address },
    })
  }
  const tx = newSafeTx({
    to: input.to,
    value: parseAmount(input.value, chain.nativeDecimals),
    data: input.data ?? '0x',
    operation: input.operation ?? 0,
    nonce: state.nonce,
  })
  // Refused now, not at execution, when the policy could not judge it (a MultiSend batch paying several).
  const payment = await safeTxPayment(chain, safe, tx)
  // Its targets are screened before the proposer signs anything (a rule's block names the list or source).
  await screenProposal(ctx, wallet, chain, safe, tx, payment)
  const hash = safeTxHash(chain.chainId, safe, tx)
  const signature = await signSafeTx(ctx, principal, chain, safe, tx, wallet)
  const now = ctx.now().toISOString()
  const proposal: SafeProposalRecord & { status: 'pending' } = {
    id: ctx.newId('msp'),
    tenantId: principal.tenantId,
    chain: chain.name,
    chainId: chain.chainId,
    safeAddress: safe,
    safeTxHash: hash,
    tx,
    proposerWalletId: wallet.id,
    proposer: wallet.address,
    proposedBy: principal.id,
    signatures: [
      {
        owner: wallet.address,
        signature,
        source: 'managed',
        walletId: wallet.id,
        addedBy: principal.id,
        addedAt: now,
      },
    ],
    status: 'pending',
    createdAt: now,
    updatedAt: now,
  }
  const outcome = await withLock(ctx.storage, [proposalLockKey(safe, hash)], async () => {
    const [existing] = await ctx.storage.query('multisig_proposals', {
      where: { tenantId: principal.tenantId, safeAddress: safe, safeTxHash: hash },
      limit: 1,
    })
    if (existing) {
      throw new ConflictError('This Safe transaction is already proposed: confirm it instead', {
        details: { proposalId: existing.id, safeTxHash: hash, status: existing.status },
      })
    }
    await ctx.storage.transaction([], async (store) => {
      await store.insert('multisig_proposals', proposal)
      if (signsSafeTxWithKey(wallet))
        auditSafeSignature(
          ctx,
          store,
          proposal,
          { walletId: wallet.id, address: wallet.address },
          'safe_proposal',
        )
      appendEvent(ctx, store, principal.tenantId, 'multisig.proposed', {
        proposalId: proposal.id,
        safeAddress: safe,
        chain: chain.name,
        safeTxHash: hash,
        proposer: wallet.address,
        to: tx.to,
        value: tx.value,
        nonce: tx.nonce,
      })
    })
    return executeIfReady(ctx, principal, chain, proposal, state, wallet)
  })
  return finishExecution(ctx, chain, outcome)
}

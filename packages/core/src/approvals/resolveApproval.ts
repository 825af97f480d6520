import type { z } from 'zod'
import { toChainError } from '../chain/toChainError.js'
import type { ChainInfo } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { exceedsApproved } from '../effects/exceedsApproved.js'
import { toStoredEffects } from '../effects/toStoredEffects.js'
import type { Effects } from '../effects/types.js'
import { BaseError, isAgentWalletError } from '../errors/baseError.js'
import { EffectsChangedError, ForbiddenError, NotFoundError } from '../errors/errors.js'
import { blockedError } from '../intents/blockedError.js'
import { settlePayment } from '../payments/settlePayment.js'
import { signedAuthorizationOf } from '../payments/signedAuthorization.js'
import { effectsOfRecord } from '../policy/effectsAhead.js'
import { intentOf } from '../policy/evaluateIntent.js'
import type { Principal } from '../principals/types.js'
import { walletLockKey, withLock } from '../storage/withLock.js'
import { type AnyCarrier, carrierOf } from '../transactions/carrier.js'
import { commitIntent } from '../transactions/commitIntent.js'
import { judgeIntent } from '../transactions/judgeIntent.js'
import { refreshCall } from '../transactions/refreshCall.js'
import { viewOf } from '../transactions/sendAnswer.js'
import type {
  PendingApprovalTransaction,
  TransactionRecord,
  UnsignedQueuedTransaction,
} from '../transactions/types.js'
import type { WalletRecord } from '../wallets/types.js'
import type { ResolveApprovalReturnType } from './approvalSchemas.js'
import { approvalView } from './listApprovals.js'
import type { resolveApprovalSchema } from './resolveApprovalSchema.js'
import {
  approvedTransaction,
  markApproved,
  markApprovedShort,
  markBlocked,
  markEffectsChanged,
  markExpired,
  markRejected,
} from './transitions.js'
import type { ApprovalRecord } from './types.js'

/**
 * Approves a paused intent: executes exactly that stored intent, once, after re-checking deny
 * rules and funds (money gone since the pause: the intent is `failed`, nothing is signed, and this
 * throws `insufficient_funds`). Approvers and admins of the tenant are declared for it; the
 * principal who asked may not. A call whose bytes carry a short-lived signature (`refreshCall`) is
 * signed again now, same intent. The call's effects are predicted again: one that would now move more,
 * or to another counterparty, than the approval showed is not sent (`effects_changed`), and a new
 * approval with its new effects waits for a human.
 * @example const { transaction } = await approveApproval(ctx, approver, { approvalId })
 */
export async function approveApproval(
  ctx: AgentWalletContext,
  principal: Principal,
  parameters: z.output<typeof resolveApprovalSchema>,
): Promise<ResolveApprovalReturnType> {
  const { approvalId, reason } = parameters
  const { wallet } = await authorize(ctx, principal, approvalId)
  const approved = await withLock<Approved>(ctx.storage, [walletLockKey(wallet.address)], async () => {
    const { approval, transaction: paused } = await loadPending(ctx, approvalId)
    const carrier = carrierOf(ctx, paused)
    const chain = carrier.chainOf(ctx.chains, paused.chain)
    // Before the approval is spent: a failure here (chain down) leaves it pending, to approve again.
    const refreshed = await refreshCall(ctx, chain, paused)
    const { transaction, effects } = await effectsNow(ctx, carrier, chain, wallet, refreshed)
    const stored = toStoredEffects(effects)
    const beyond = approval.effects && exceedsApproved(approval.effects, stored)
    if (beyond) {
      const again = await markEffectsChanged(ctx, approval, paused, principal, stored, beyond)
      throw new EffectsChangedError(`Not sent: ${beyond}. A new approval waits with what it would do now`, {
        details: { transactionId: paused.id, approvalId: again.id, previousApprovalId: approval.id },
      })
    }
    const { decision, gas, allocated, short } = await judgeIntent(
      ctx,
      chain,
      carrier,
      wallet,
      { ...intentOf(transaction), effects },
      transaction.call,
      {
        excludeTransactionId: transaction.id,
      },
    )
    // An intent paused before a USD rule applied is valued now; one valued when made keeps its value.
    const usd = transaction.usd ?? decision.usd
    if (decision.decision === 'deny')
      throw blockedError(await markBlocked(ctx, approval, transaction, principal, decision, usd))
    const queued = approvedTransaction(ctx, transaction, usd)
    if (short) {
      // The money left while the intent waited: the approval is spent and the intent fails
      // unsigned, releasing its reservation. Any other error (chain down) leaves it pending.
      await markApprovedShort(ctx, approval, queued, principal, reason, short, decision)
      throw new BaseError(short.code, short.shortMessage, {
        details: { ...short.details, transactionId: queued.id, approvalId: approval.id },
        cause: short,
      })
    }
    const resolved = await markApproved(ctx, approval, queued, principal, reason, decision)
    // Its carrier takes it out: signed and durable, the broadcast waits in the wallet's lane; a user
    // operation is handed to the bundler. One its carrier takes nothing out of (an x402 payment) is
    // settled by its payee, after the lock: the request is sent again, paid.
    const { sending } = await commitIntent(ctx, chain, queued, gas, { write: 'put', allocated })
    return sending ? { approval: resolved, sending } : { approval: resolved, offchain: queued }
  })
  if (approved.sending)
    return { approval: approvalView(approved.approval), transaction: viewOf(ctx, await approved.sending) }
  // The approval stands whatever the payee answers: the payment is answered as it stands — `failed`
  // when nothing was signed, `queued` while a refused authorization could still be used, `confirmed`
  // (with `meta.delivered: false`) when the payee took it without delivering.
  const transaction = await settlePayment(ctx, approved.offchain).then(
    (settled) => settled.transaction,
    async (error: unknown) => {
      const stored = await ctx.storage.get('transactions', approved.offchain.id)
      const answered = stored?.status === 'failed' || signedAuthorizationOf(stored ?? approved.offchain)
      if (!isAgentWalletError(error) || !stored || !answered) throw error
      return stored
    },
  )
  return { approval: approvalView(approved.approval), transaction: viewOf(ctx, transaction) }
}

/**
 * The paused intent with what its call would do now, as its carrier predicts a new intent's
 * (`Carrier.effects`: a smart wallet's batch as one, a Solana send simulated); an x402 payment is
 * not a call of the wallet's: it keeps the effects it was made with.
 */
async function effectsNow(
  ctx: AgentWalletContext,
  carrier: AnyCarrier,
  chain: ChainInfo,
  wallet: WalletRecord,
  transaction: PendingApprovalTransaction,
): Promise<{ transaction: PendingApprovalTransaction; effects: Effects }> {
  if (transaction.kind === 'x402_payment')
    return { transaction, effects: await effectsOfRecord(ctx.chains.get(transaction.chain), transaction) }
  const { call, calls } = transaction
  // A node that cannot predict them leaves the approval pending (chain_unavailable), to approve again.
  const effects = await carrier
    .effects(ctx, chain, wallet, {
      ...transaction,
      amount: BigInt(transaction.amount),
      call: { ...call, value: BigInt(call.value) },
      calls: calls?.map((entry) => ({ ...entry, value: BigInt(entry.value) })),
      effects: undefined,
    })
    .catch((error: unknown) => {
      if (isAgentWalletError(error)) throw error
      throw toChainError(error, chain.name, { read: true })
    })
  return { transaction: { ...transaction, effects: toStoredEffects(effects) }, effects }
}

/** An approval decided under the lock: its transaction's broadcast under way, or an x402 payment to settle. */
type Approved =
  | { approval: ApprovalRecord; sending: Promise<TransactionRecord>; offchain?: undefined }
  | { approval: ApprovalRecord; offchain: UnsignedQueuedTransaction; sending?: undefined }

/**
 * Rejects a paused intent and releases its reserved spend.
 * @example await rejectApproval(ctx, approver, { approvalId, reason: 'unknown recipient' })
 */
export async function rejectApproval(
  ctx: AgentWalletContext,
  principal: Principal,
  parameters: z.output<typeof resolveApprovalSchema>,
): Promise<ResolveApprovalReturnType> {
  const { approvalId } = parameters
  const { wallet } = await authorize(ctx, principal, approvalId)
  return withLock(ctx.storage, [walletLockKey(wallet.address)], async () => {
    const { approval, transaction } = await loadPending(ctx, approvalId)
    const rejected = await markRejected(ctx, approval, transaction, principal, parameters.reason)
    return { approval: approvalView(rejected.approval), transaction: viewOf(ctx, rejected.transaction) }
  })
}

/**
 * Expires every pending approval past its deadline, releasing the reserved spend. The tracker
 * calls it on each tick; it is safe to call from several places at once.
 */
export async function expireApprovals(ctx: AgentWalletContext): Promise<number> {
  const due = await ctx.storage.query('approvals', {
    where: { status: 'pending' },
    range: { field: 'expiresAt', lt: ctx.now().toISOString() },
    limit: 500,
  })
  let expired = 0
  for (const candidate of due) {
    const wallet = await ctx.storage.get('wallets', candidate.walletId)
    if (!wallet) continue
    await withLock(ctx.storage, [walletLockKey(wallet.address)], async () => {
      const approval = await ctx.storage.get('approvals', candidate.id)
      const transaction = approval && (await ctx.storage.get('transactions', approval.transactionId))
      if (
        !approval ||
        !transaction ||
        approval.status !== 'pending' ||
        transaction.status !== 'pending_approval'
      )
        return
      await markExpired(ctx, approval, transaction)
      expired++
    })
  }
  return expired
}

async function authorize(ctx: AgentWalletContext, principal: Principal, approvalId: string) {
  const approval = await ctx.storage.get('approvals', approvalId)
  if (!approval || approval.tenantId !== principal.tenantId)
    throw new NotFoundError('Approval', { details: { approvalId } })
  if (approval.requestedBy === principal.id) {
    throw new ForbiddenError('The principal that asked for a transaction cannot resolve its approval', {
      details: { approvalId },
    })
  }
  const wallet = await ctx.storage.get('wallets', approval.walletId)
  if (!wallet) throw new NotFoundError('Wallet', { details: { walletId: approval.walletId } })
  return { approval, wallet }
}

/** Re-reads under the lock: an approval resolves once, and an expired one cannot be approved. */
async function loadPending(ctx: AgentWalletContext, approvalId: string) {
  const approval = await ctx.storage.get('approvals', approvalId)
  const transaction = approval && (await ctx.storage.get('transactions', approval.transactionId))
  if (!approval || !transaction) throw new NotFoundError('Approval', { details: { approvalId } })
  if (approval.status !== 'pending') {
    throw new BaseError('approval_not_pending', `Approval is already ${approval.status}`, {
      details: { approvalId, status: approval.status },
    })
  }
  if (transaction.status !== 'pending_approval') {
    throw new BaseError('approval_not_pending', `Its transaction is already ${transaction.status}`, {
      details: { approvalId, status: approval.status, transactionStatus: transaction.status },
    })
  }
  if (Date.parse(approval.expiresAt) <= ctx.now().getTime()) {
    await markExpired(ctx, approval, transaction)
    throw new BaseError('approval_expired', 'Approval has expired', {
      details: { approvalId, expiresAt: approval.expiresAt },
    })
  }
  return { approval, transaction }
}

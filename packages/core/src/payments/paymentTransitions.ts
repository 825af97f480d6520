import type { Address, Hex } from 'viem'
import { appendAudit } from '../audit/appendAudit.js'
import type { TypedDataSigned } from '../audit/typedDataSigned.js'
import type { AgentWalletContext } from '../context.js'
import { appendEvent } from '../events/appendEvent.js'
import { txPayload } from '../transactions/transitions.js'
import type { SettledOffchainTransaction, UnsignedQueuedTransaction } from '../transactions/types.js'

/** What the resource answered a payment its payee took: an error status, or nothing (`status: null`). */
export type Undelivered = { status: number | null; reason: string }

/**
 * queued → confirmed for an intent its payee settled (an x402 payment), with `payment.settled`:
 * `hash` is the settlement tx (read from the chain, or as the payee told it). With `undelivered`, the
 * payee took the money and answered an error or nothing: the record says so (`meta.delivered: false`,
 * `meta.undelivered`) and `payment.settled_without_delivery` is appended in the same commit.
 * @example const settled = await markSettled(ctx, record, { hash, settlementTx })
 */
export async function markSettled(
  ctx: AgentWalletContext,
  record: UnsignedQueuedTransaction,
  settlement: { hash: Hex | undefined; settlementTx: string | null; undelivered?: Undelivered | undefined },
): Promise<SettledOffchainTransaction> {
  const now = ctx.now().toISOString()
  const { undelivered } = settlement
  const next: SettledOffchainTransaction = {
    ...record,
    status: 'confirmed',
    ...(settlement.hash ? { hash: settlement.hash } : {}),
    meta: {
      ...record.meta,
      settlementTx: settlement.settlementTx,
      ...(undelivered ? { delivered: false, undelivered } : {}),
    },
    confirmedAt: now,
    updatedAt: now,
  }
  await ctx.storage.transaction([], async (tx) => {
    await tx.put('transactions', next)
    const payment = {
      ...txPayload(next),
      payee: next.to,
      resource: String(next.meta?.resource ?? ''),
      network: `eip155:${next.chainId}`,
    }
    appendEvent(ctx, tx, next.tenantId, 'payment.settled', payment)
    if (undelivered)
      appendEvent(ctx, tx, next.tenantId, 'payment.settled_without_delivery', {
        ...payment,
        responseStatus: undelivered.status,
        reason: undelivered.reason,
      })
  })
  return next
}

/**
 * queued → queued for an x402 payment whose EIP-3009 authorization the vault signed, before the
 * request carrying it leaves: from here the chain, not the payee's answer, says when it is spent
 * (`meta.authorization`; payments/readAuthorization.ts). The vault's signature (`signed`: what it
 * signed) enters the audit trail in the same commit, so none is used unrecorded.
 * @example const authorized = await markAuthorized(ctx, record, authorization, typedDataSigned(typedData))
 */
export async function markAuthorized(
  ctx: AgentWalletContext,
  record: UnsignedQueuedTransaction,
  authorization: Record<string, unknown>,
  signed: TypedDataSigned,
  /** The vault key that signed: the wallet's own (`from`), or a smart wallet's owner key. */
  keyId: Address = record.from,
): Promise<UnsignedQueuedTransaction> {
  const next: UnsignedQueuedTransaction = {
    ...record,
    meta: { ...record.meta, authorization },
    updatedAt: ctx.now().toISOString(),
  }
  await ctx.storage.transaction([], async (tx) => {
    await tx.put('transactions', next)
    appendAudit(ctx, tx, next.tenantId, {
      kind: 'vault.signature',
      subjects: { walletId: next.walletId, transactionId: next.id, keyId },
      payload: { ...signed, for: 'x402_payment' },
    })
  })
  return next
}

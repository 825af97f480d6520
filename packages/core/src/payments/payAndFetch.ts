import { encodeFunctionData, erc20Abi, formatUnits } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import type { Principal } from '../principals/types.js'
import { toApprovalSummary } from '../transactions/approvalSummary.js'
import { viewOf } from '../transactions/sendAnswer.js'
import {
  replayIntent,
  type SubmitOptions,
  type SubmitResult,
  submitIntent,
} from '../transactions/submitIntent.js'
import { isSigned, type TransactionRecord } from '../transactions/types.js'
import { findWallet } from '../wallets/findWallet.js'
import { requireAccountWallet } from '../wallets/requireAccountWallet.js'
import type { WalletRecord } from '../wallets/types.js'
import { acceptsContractSignatures } from './acceptsContractSignatures.js'
import { type ChosenRequirement, chooseRequirement } from './chooseRequirement.js'
import { fetchResource } from './fetchResource.js'
import type { PayAndFetchAnswer, PayAndFetchInput, Payment } from './payAndFetchSchema.js'
import { settlePayment } from './settlePayment.js'
import type { X402RequestRecord } from './x402RequestRecord.js'

/**
 * Fetches an HTTP resource and pays it with x402 v2 when it answers 402: picks a requirement this
 * chain can pay, submits it as an `x402_payment` intent through the policy engine (reserving spend,
 * idempotent by key), then the vault signs an EIP-3009 authorization and the request is sent again.
 * A payment paused for approval answers `pending_approval`; approving it completes the request, and
 * the same idempotency key then answers the resource.
 * @example const { response, payment } = await payAndFetch(ctx, agent, { wallet, url, maxAmount: '0.10' })
 */
export async function payAndFetch(
  ctx: AgentWalletContext,
  principal: Principal,
  input: PayAndFetchInput,
  options: Pick<SubmitOptions, 'idempotencyKey'> = {},
): Promise<PayAndFetchAnswer> {
  const { wallet: address, maxAmount, chain: chainName, ...request } = input
  const wallet = requireAccountWallet(await findWallet(ctx, principal, address), 'pay by x402')
  const chain = ctx.chains.get(chainName ?? wallet.chain)
  const submitted = { address: wallet.address, ...input }
  // A retry under the same key answers what the first call paid for, without asking the resource again.
  const earlier =
    options.idempotencyKey === undefined
      ? undefined
      : await replayIntent(ctx, principal, { idempotencyKey: options.idempotencyKey, request: submitted })
  if (earlier) return answerOf(ctx, earlier)
  const first = await fetchResource(request, ctx.options.webhooks)
  if (first.response.status !== 402) return { status: 'completed', response: first.response, payment: null }
  const chosen = chooseRequirement(chain, first.header, maxAmount)
  await requireSignableBy(chain, wallet, chosen)
  const result = await submitIntent(ctx, principal, wallet, draftOf(chain.name, chosen, request.url), {
    idempotencyKey: options.idempotencyKey,
    request: submitted,
    beforeCommit: async (tx, record) => {
      const stored: X402RequestRecord = {
        id: record.id,
        tenantId: record.tenantId,
        request,
        paymentRequired: chosen.paymentRequired,
        requirement: chosen.requirement,
      }
      await tx.insert('x402_requests', stored)
    },
  })
  return answerOf(ctx, result)
}

/**
 * A smart wallet signs its authorization as EIP-1271 (its owner key, checked by the wallet's
 * `isValidSignature`): a token that checks only `ecrecover` would never take it, so that payment is
 * refused before anything is signed or saved — 422 `wallet_kind_unsupported`, with the reason.
 */
async function requireSignableBy(chain: ChainHandle, wallet: WalletRecord, chosen: ChosenRequirement) {
  if (wallet.kind !== 'smart' || (await acceptsContractSignatures(chain, chosen.token.address))) return
  throw new BaseError(
    'wallet_kind_unsupported',
    `${chosen.token.symbol} does not accept EIP-1271 signatures, so a smart wallet cannot pay with it by x402; use an EOA wallet`,
    {
      details: {
        wallet: wallet.address,
        kind: 'smart',
        flow: 'pay by x402',
        reason: 'token does not accept EIP-1271 signatures',
        token: chosen.token.address,
      },
    },
  )
}

/** The intent of a chosen requirement: the payee, the token and amount it moves. */
function draftOf(chain: string, chosen: ChosenRequirement, url: string) {
  return {
    kind: 'x402_payment' as const,
    chain,
    to: chosen.payee,
    asset: { address: chosen.token.address, symbol: chosen.token.symbol, decimals: chosen.token.decimals },
    amount: chosen.amount,
    // What settlement does, for the policy view and the decoded history: the token moves to the payee.
    call: {
      to: chosen.token.address,
      value: 0n,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [chosen.payee, chosen.amount],
      }),
    },
    meta: {
      resource: chosen.paymentRequired.resource?.url ?? url,
      network: chosen.requirement.network,
      scheme: chosen.requirement.scheme,
      ...claimedAgentId(chosen.requirement.extra?.agentId),
    },
  }
}

/** The ERC-8004 agent id a requirement's `extra.agentId` claims for its payee (checked by the identity rule). */
function claimedAgentId(agentId: unknown): { payeeAgentId?: string } {
  if (typeof agentId === 'string' || (typeof agentId === 'number' && Number.isSafeInteger(agentId)))
    return { payeeAgentId: String(agentId) }
  return {}
}

/** Answers a submitted (or replayed) payment: paid now, paused, finished earlier, or under way. */
async function answerOf(ctx: AgentWalletContext, result: SubmitResult): Promise<PayAndFetchAnswer> {
  const transaction = viewOf(ctx, result.transaction)
  if (result.status === 'pending_approval')
    return { status: 'pending_approval', approval: toApprovalSummary(result.approval), transaction }
  // Settled by its payee (its carrier, `payeeCarrier`), so never signed here as a tx.
  if (result.status === 'queued' && !result.replayed && !isSigned(result.transaction)) {
    const settled = await settlePayment(ctx, result.transaction)
    return { status: 'completed', response: settled.response, payment: paymentOf(ctx, settled.transaction) }
  }
  return replayed(ctx, result.transaction)
}

/** A payment made before (same idempotency key): its stored answer, or its failure again. */
async function replayed(ctx: AgentWalletContext, record: TransactionRecord): Promise<PayAndFetchAnswer> {
  const stored = await ctx.storage.get('x402_requests', record.id)
  const { response, outcome } = stored ?? {}
  // The payee's answer is not known yet (the first call is still waiting for it), or never came.
  if (record.status === 'queued' && !outcome)
    return { status: 'in_progress', transaction: viewOf(ctx, record) }
  if (record.status === 'confirmed' && record.meta?.delivered === false) {
    const undelivered = record.meta.undelivered as { status?: number | null; reason?: string } | undefined
    throw new BaseError(
      'payment_not_delivered',
      'The payee took the payment but did not deliver the resource',
      {
        details: { transactionId: record.id, hash: record.hash, amount: record.amount, ...undelivered },
      },
    )
  }
  // Delivered: the resource, whether or not the chain shows its settlement yet.
  if (
    (record.status === 'confirmed' || record.status === 'queued') &&
    outcome?.delivered !== false &&
    response
  )
    return { status: 'completed', response, payment: paymentOf(ctx, record) }
  throw new BaseError(
    'payment_failed',
    record.error?.message ?? outcome?.reason ?? `The payment is ${record.status}`,
    { details: { transactionId: record.id, status: record.status, cause: record.error?.code } },
  )
}

/**
 * A settled x402 intent as the payment it is.
 * @example paymentOf(ctx, record).settlementTx
 */
export function paymentOf(ctx: Pick<AgentWalletContext, 'chains'>, record: TransactionRecord): Payment {
  return {
    transaction: viewOf(ctx, record),
    resource: String(record.meta?.resource ?? ''),
    payee: record.to,
    network: `eip155:${record.chainId}`,
    amount: formatUnits(BigInt(record.amount), record.asset.decimals),
    amountRaw: record.amount,
    asset: {
      address: record.asset.address as `0x${string}`,
      symbol: record.asset.symbol,
      decimals: record.asset.decimals,
    },
    settlementTx: (record.meta?.settlementTx as string | null | undefined) ?? null,
  }
}

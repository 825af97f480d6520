import { x402Client } from '@x402/core/client'
import type { PaymentRequirements, SettleResponse } from '@x402/core/types'
import { ExactEvmScheme } from '@x402/evm'
import { type Address, type Hex, isHash } from 'viem'
import type { AgentWalletContext } from '../context.js'
import { BaseError, isAgentWalletError } from '../errors/baseError.js'
import { NotFoundError } from '../errors/errors.js'
import { markFailed, markSettled } from '../transactions/transitions.js'
import type { TransactionRecord, UnsignedQueuedTransaction } from '../transactions/types.js'
import { x402Http } from './chooseRequirement.js'
import { type FetchedResource, fetchResource } from './fetchResource.js'
import type { ResourceResponse } from './payAndFetchSchema.js'
import { vaultPaymentSigner } from './vaultPaymentSigner.js'
import type { X402RequestRecord } from './x402RequestRecord.js'

export type SettledPayment = { transaction: TransactionRecord; response: ResourceResponse }

/**
 * Pays an accepted (or approved) x402 intent: the vault signs the EIP-3009 authorization (a fresh
 * random nonce), the request goes again with `PAYMENT-SIGNATURE`, and the answer's `PAYMENT-RESPONSE`
 * settles the intent: `confirmed` with the settlement tx as its hash and `payment.settled`; or
 * `failed` (its reservation released) and `payment_failed`.
 * @example const { transaction, response } = await settlePayment(ctx, queued)
 */
export async function settlePayment(
  ctx: AgentWalletContext,
  record: UnsignedQueuedTransaction,
): Promise<SettledPayment> {
  const stored = await ctx.storage.get('x402_requests', record.id)
  if (!stored) throw new NotFoundError('x402 request', { details: { transactionId: record.id } })
  let fetched: FetchedResource
  try {
    const headers = x402Http.encodePaymentSignatureHeader(await signPayment(ctx, record, stored))
    fetched = await fetchResource(stored.request, ctx.options.webhooks, headers)
  } catch (error) {
    const failure = isAgentWalletError(error)
      ? error
      : new BaseError('payment_failed', 'The payment could not be signed', { cause: error })
    await markFailed(ctx, record, failure)
    throw failure
  }
  const settlement = settlementOf(fetched)
  if (fetched.response.status >= 400 || settlement?.success === false) {
    const reason = settlement?.errorReason ?? `the resource answered HTTP ${fetched.response.status}`
    const error = new BaseError(
      'payment_failed',
      `The resource server did not accept the payment: ${reason}`,
      {
        details: { transactionId: record.id, status: fetched.response.status, reason },
      },
    )
    await finish(ctx, stored, fetched.response, () => markFailed(ctx, record, error))
    throw error
  }
  const transaction = await finish(ctx, stored, fetched.response, () =>
    markSettled(ctx, record, {
      hash: settlementHashOf(settlement),
      settlementTx: settlement?.transaction ?? null,
    }),
  )
  return { transaction, response: fetched.response }
}

/** The payment payload, from the packages' x402 client with the vault as its signer. */
async function signPayment(
  ctx: AgentWalletContext,
  record: UnsignedQueuedTransaction,
  stored: X402RequestRecord,
) {
  const signer = await vaultPaymentSigner(ctx, {
    from: record.from,
    token: record.asset.address as Address,
    payee: record.to,
    amount: BigInt(record.amount),
    chainId: record.chainId,
  })
  const chosen = (_version: number, accepts: PaymentRequirements[]) =>
    accepts.find((candidate) => sameRequirement(candidate, stored.requirement)) ?? stored.requirement
  // The policy engine is this wallet's spend control (it judged the intent): none of the client's own.
  const client = x402Client.fromConfig({
    schemes: [{ network: stored.requirement.network, client: new ExactEvmScheme(signer) }],
    paymentRequirementsSelector: chosen,
    spendControls: false,
  })
  return client.createPaymentPayload(stored.paymentRequired)
}

function sameRequirement(a: PaymentRequirements, b: PaymentRequirements): boolean {
  return (
    a.scheme === b.scheme &&
    a.network === b.network &&
    a.asset === b.asset &&
    a.payTo === b.payTo &&
    a.amount === b.amount
  )
}

function settlementOf(fetched: FetchedResource): SettleResponse | undefined {
  if (!fetched.header('PAYMENT-RESPONSE')) return undefined
  try {
    return x402Http.getPaymentSettleResponse(fetched.header)
  } catch {
    return undefined
  }
}

async function finish(
  ctx: AgentWalletContext,
  stored: X402RequestRecord,
  response: ResourceResponse,
  transition: () => Promise<TransactionRecord>,
): Promise<TransactionRecord> {
  await ctx.storage.transaction([], (tx) => tx.put('x402_requests', { ...stored, response }))
  return transition()
}

/** The settlement tx the payee reported, when it is a tx hash. */
function settlementHashOf(settlement: SettleResponse | undefined): Hex | undefined {
  const reported = settlement?.transaction
  return reported !== undefined && isHash(reported) ? reported : undefined
}

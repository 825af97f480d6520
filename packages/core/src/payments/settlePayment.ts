import { x402Client } from '@x402/core/client'
import type { PaymentRequirements, SettleResponse } from '@x402/core/types'
import { ExactEvmScheme } from '@x402/evm'
import { type Address, getAddress, type Hex } from 'viem'
import { type TypedDataSigned, typedDataSigned } from '../audit/typedDataSigned.js'
import { isTransportError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError, isAgentWalletError } from '../errors/baseError.js'
import { NotFoundError } from '../errors/errors.js'
import { deployByRelayer } from '../smartWallets/deployByRelayer.js'
import { signAsWallet } from '../smartWallets/signAsWallet.js'
import type { TransactionRecord, UnsignedQueuedTransaction } from '../transactions/types.js'
import { authorizeUnsigned } from './authorizeUnsigned.js'
import { x402Http } from './chooseRequirement.js'
import { type FetchedResource, fetchResource } from './fetchResource.js'
import type { ResourceResponse } from './payAndFetchSchema.js'
import { releaseUnsigned } from './releaseUnsigned.js'
import { resolveAuthorization } from './resolveAuthorization.js'
import type { SignedAuthorization } from './signedAuthorization.js'
import { vaultPaymentSigner } from './vaultPaymentSigner.js'
import type { PaymentOutcome, X402RequestRecord } from './x402RequestRecord.js'

export type SettledPayment = { transaction: TransactionRecord; response: ResourceResponse }

/**
 * Pays an accepted (or approved) x402 intent: the vault signs the EIP-3009 authorization (a fresh
 * random nonce), the record keeps it, and the request goes again with `PAYMENT-SIGNATURE`. Then the
 * chain, not the answer, settles the intent (`resolveAuthorization`): used → `confirmed` with the
 * hash of the tx that used it, and `payment_not_delivered` is thrown when the resource answered an
 * error or nothing; unused → still `queued` and reserved until the chain shows it used, cancelled or
 * expired, and `payment_failed` (or the request's error) is thrown when the resource refused it.
 * @example const { transaction, response } = await settlePayment(ctx, queued)
 */
export async function settlePayment(
  ctx: AgentWalletContext,
  record: UnsignedQueuedTransaction,
): Promise<SettledPayment> {
  const stored = await ctx.storage.get('x402_requests', record.id)
  if (!stored) throw new NotFoundError('x402 request', { details: { transactionId: record.id } })
  let headers: Record<string, string>
  try {
    // Nothing before this block can hold the authorization's use: the payee has not seen it yet.
    const fromBlock = await ctx.chains.get(record.chain).client.getBlockNumber()
    const signed = await signPayment(ctx, record, stored, fromBlock)
    headers = x402Http.encodePaymentSignatureHeader(signed.payload)
    // Kept before the request leaves: from then on only the chain says when it is spent.
    // Under the wallet's lock, as the tracker releases one abandoned: a released payment is refused.
    await authorizeUnsigned(ctx, record.id, signed.authorization, signed.typedData, signed.keyId)
  } catch (error) {
    const failure = isAgentWalletError(error)
      ? error
      : new BaseError('payment_failed', 'The payment could not be signed', { cause: error })
    await releaseUnsigned(ctx, record.id, failure)
    throw failure
  }
  let fetched: FetchedResource
  try {
    fetched = await fetchResource(stored.request, ctx.options.webhooks, headers)
  } catch (error) {
    const reason = isAgentWalletError(error) ? error.shortMessage : 'the resource did not answer'
    const transaction = await answered(ctx, stored, { delivered: false, status: null, reason })
    if (transaction?.status === 'confirmed') throw notDelivered(transaction, { status: null, reason })
    throw error
  }
  const settlement = settlementOf(fetched)
  const { status } = fetched.response
  const refused = status >= 400 || settlement?.success === false
  const reason = refused ? (settlement?.errorReason ?? `the resource answered HTTP ${status}`) : undefined
  const transaction = await answered(ctx, stored, { delivered: !refused, status, reason }, fetched.response)
  if (!transaction) throw new NotFoundError('transaction', { details: { transactionId: record.id } })
  if (!refused) return { transaction, response: fetched.response }
  if (transaction.status === 'confirmed') throw notDelivered(transaction, { status, reason })
  throw new BaseError('payment_failed', `The resource server did not accept the payment: ${reason}`, {
    details: {
      transactionId: record.id,
      status,
      reason,
      // Its payee could still use it: reserved until then, or until cancelled (docs/payments.md).
      transactionStatus: transaction.status,
      ...reservedUntil(transaction),
    },
  })
}

/** Stores what the request got, then asks the chain: the payment as it stands. */
async function answered(
  ctx: AgentWalletContext,
  stored: X402RequestRecord,
  outcome: PaymentOutcome,
  response?: ResourceResponse,
): Promise<TransactionRecord | undefined> {
  await ctx.storage.transaction([], (tx) =>
    tx.put('x402_requests', { ...stored, ...(response ? { response } : {}), outcome }),
  )
  return resolveAuthorization(ctx, stored.id).catch(async (error: unknown) => {
    // A node that does not answer now leaves the payment reserved for the tracker to read later;
    // the caller still gets what the resource answered.
    if (!isTransportError(error)) throw error
    return ctx.storage.get('transactions', stored.id)
  })
}

function notDelivered(
  transaction: TransactionRecord,
  answer: { status: number | null; reason?: string | undefined },
) {
  return new BaseError(
    'payment_not_delivered',
    `The payee took the payment but did not deliver the resource: ${answer.reason}`,
    {
      details: {
        transactionId: transaction.id,
        hash: transaction.hash,
        amount: transaction.amount,
        status: answer.status,
        reason: answer.reason,
      },
    },
  )
}

function reservedUntil(transaction: TransactionRecord): { reservedUntil?: string } {
  const authorization = transaction.meta?.authorization as SignedAuthorization | undefined
  if (transaction.status !== 'queued' || !authorization) return {}
  return { reservedUntil: new Date(Number(authorization.validBefore) * 1000).toISOString() }
}

/** The payment payload, from the packages' x402 client with the vault as its signer, and what it signed. */
async function signPayment(
  ctx: AgentWalletContext,
  record: UnsignedQueuedTransaction,
  stored: X402RequestRecord,
  fromBlock: bigint,
) {
  let authorization: SignedAuthorization | undefined
  let typedData: TypedDataSigned | undefined
  const wallet = await ctx.storage.get('wallets', record.walletId)
  if (!wallet) throw new NotFoundError('Wallet', { details: { walletId: record.walletId } })
  // A smart wallet's signature is checked by its contract (EIP-1271): it must be on chain first.
  await deployByRelayer(ctx, ctx.chains.get(record.chain), wallet)
  const account = await signAsWallet(ctx, wallet)
  const signer = vaultPaymentSigner(
    account,
    {
      from: record.from,
      token: record.asset.address as Address,
      payee: record.to,
      amount: BigInt(record.amount),
      chainId: record.chainId,
    },
    (signed) => {
      const { domain, message } = signed
      typedData = typedDataSigned(signed)
      authorization = {
        token: getAddress(String(domain.verifyingContract)),
        authorizer: getAddress(String(message.from)),
        payee: getAddress(String(message.to)),
        value: String(message.value),
        nonce: message.nonce as Hex,
        validAfter: String(message.validAfter),
        validBefore: String(message.validBefore),
        fromBlock: fromBlock.toString(),
        domain: { name: String(domain.name), version: String(domain.version) },
      }
    },
  )
  const chosen = (_version: number, accepts: PaymentRequirements[]) =>
    accepts.find((candidate) => sameRequirement(candidate, stored.requirement)) ?? stored.requirement
  // The policy engine is this wallet's spend control (it judged the intent): none of the client's own.
  const client = x402Client.fromConfig({
    schemes: [{ network: stored.requirement.network, client: new ExactEvmScheme(signer) }],
    paymentRequirementsSelector: chosen,
    spendControls: false,
  })
  const payload = await client.createPaymentPayload(stored.paymentRequired)
  if (!authorization || !typedData)
    throw new BaseError('payment_failed', 'The payment signed no EIP-3009 authorization')
  return { payload, authorization, typedData, keyId: account.keyId }
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

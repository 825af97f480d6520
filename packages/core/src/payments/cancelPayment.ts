import { encodeFunctionData } from 'viem'
import { recordAudit } from '../audit/recordAudit.js'
import { typedDataSigned } from '../audit/typedDataSigned.js'
import { cancelAuthorizationTypes, eip3009Abi } from '../chain/eip3009Abi.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { NotFoundError } from '../errors/errors.js'
import type { IntentDraft } from '../intents/types.js'
import type { Principal } from '../principals/types.js'
import { signAsWallet } from '../smartWallets/signAsWallet.js'
import { toSendAnswer, viewOf } from '../transactions/sendAnswer.js'
import { replayIntent, type SubmitOptions, submitIntent } from '../transactions/submitIntent.js'
import type { SendAnswer } from '../transactions/transactionSchemas.js'
import type { TransactionRecord } from '../transactions/types.js'
import { canSee } from '../wallets/findWallet.js'
import type { CancelPaymentAnswer, CancelPaymentInput } from './paymentSchemas.js'
import { resolveAuthorization } from './resolveAuthorization.js'
import { answerWaitMs, type SignedAuthorization, signedAuthorizationOf } from './signedAuthorization.js'

/**
 * Cancels the EIP-3009 authorization of an x402 payment its payee did not deliver and has not used:
 * the wallet signs `CancelAuthorization(authorizer, nonce)` (`signAsWallet`) and sends the token's
 * `cancelAuthorization` through the money path (a contract call moving nothing; it pays gas). Once
 * mined, the tracker reads `AuthorizationCanceled` and the payment is `failed`
 * (`authorization_cancelled`), its reservation released; a payee that used it first settles it instead.
 * @example const { transaction, payment } = await cancelPayment(ctx, agent, { payment: 'tx_…' })
 */
export async function cancelPayment(
  ctx: AgentWalletContext,
  principal: Principal,
  input: CancelPaymentInput,
  options: Pick<SubmitOptions, 'idempotencyKey'> = {},
): Promise<CancelPaymentAnswer> {
  const payment = await ctx.storage.get('transactions', input.payment)
  const wallet =
    payment?.kind === 'x402_payment' ? await ctx.storage.get('wallets', payment.walletId) : undefined
  // A payment of a wallet the caller may not see is not found, as itself: the refusal names nothing of it.
  if (!payment || !wallet || !canSee(principal, wallet))
    throw new NotFoundError('x402 payment', { details: { payment: input.payment } })
  const request = { address: wallet.address, ...input }
  const earlier =
    options.idempotencyKey === undefined
      ? undefined
      : await replayIntent(ctx, principal, { idempotencyKey: options.idempotencyKey, request })
  if (earlier) return answerOf(ctx, payment.id, toSendAnswer(ctx, earlier))
  // The chain first: an authorization its payee used, or that lapsed, is settled or released now.
  const current = (await resolveAuthorization(ctx, payment.id)) ?? payment
  const authorization = await cancellable(ctx, current)
  const account = await signAsWallet(ctx, wallet)
  const typedData = {
    domain: { ...authorization.domain, chainId: current.chainId, verifyingContract: authorization.token },
    types: cancelAuthorizationTypes,
    primaryType: 'CancelAuthorization',
    message: { authorizer: authorization.authorizer, nonce: authorization.nonce },
  } as const
  const signature = await account.signTypedData(typedData)
  // Recorded before the intent carrying it is judged or sent: none is used unrecorded.
  await recordAudit(ctx, principal.tenantId, {
    kind: 'vault.signature',
    subjects: { walletId: wallet.id, transactionId: current.id, keyId: account.keyId },
    payload: { ...typedDataSigned(typedData), for: 'x402_cancel' },
  })
  const chain = ctx.chains.get(current.chain)
  const data = encodeFunctionData({
    abi: eip3009Abi,
    functionName: 'cancelAuthorization',
    args: [authorization.authorizer, authorization.nonce, signature],
  })
  const draft: IntentDraft = {
    kind: 'contract_call',
    chain: chain.name,
    to: authorization.token,
    asset: { address: 'native', symbol: chain.nativeSymbol, decimals: chain.nativeDecimals },
    amount: 0n,
    call: { to: authorization.token, value: 0n, data },
    meta: { protocol: 'eip3009', step: 'cancelAuthorization', payment: current.id },
  }
  const result = await submitIntent(ctx, principal, wallet, draft, {
    idempotencyKey: options.idempotencyKey,
    request,
  })
  return answerOf(ctx, current.id, toSendAnswer(ctx, result))
}

/** The payment's open authorization, or `conflict` saying why it cannot be cancelled. */
async function cancellable(
  ctx: AgentWalletContext,
  payment: TransactionRecord,
): Promise<SignedAuthorization> {
  const authorization = signedAuthorizationOf(payment)
  const outcome = (await ctx.storage.get('x402_requests', payment.id))?.outcome
  const details = { payment: payment.id, status: payment.status }
  if (payment.status !== 'queued' || !authorization)
    throw new BaseError(
      'conflict',
      'Only a payment whose authorization is signed and unused can be cancelled',
      {
        details,
      },
    )
  if (outcome?.delivered)
    throw new BaseError('conflict', 'The payee delivered the resource: its payment is not cancelled', {
      details,
    })
  if (!outcome && Date.parse(payment.updatedAt) > ctx.now().getTime() - answerWaitMs)
    throw new BaseError('conflict', 'The payment’s request is still waiting for the payee’s answer', {
      details,
    })
  return authorization
}

async function answerOf(
  ctx: AgentWalletContext,
  paymentId: string,
  cancellation: SendAnswer,
): Promise<CancelPaymentAnswer> {
  const payment = await ctx.storage.get('transactions', paymentId)
  if (!payment) throw new NotFoundError('x402 payment', { details: { payment: paymentId } })
  return { ...cancellation, payment: viewOf(ctx, payment) }
}

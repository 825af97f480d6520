import { encodeFunctionData, keccak256, parseUnits, stringToBytes } from 'viem'
import { reputationRegistryAbi } from '../chain/reputationRegistryAbi.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { NotFoundError } from '../errors/errors.js'
import type { IntentDraft } from '../intents/types.js'
import { counterpartyFacts } from '../policy/counterpartyFacts.js'
import { intentOf } from '../policy/evaluateIntent.js'
import type { Principal } from '../principals/types.js'
import { toSendAnswer } from '../transactions/sendAnswer.js'
import { type SubmitOptions, submitIntent } from '../transactions/submitIntent.js'
import type { SendAnswer } from '../transactions/transactionSchemas.js'
import { findWallet } from '../wallets/findWallet.js'
import type { RateCounterpartyAnswer, RateCounterpartyInput } from './paymentSchemas.js'

/**
 * Posts feedback on the ERC-8004 agent an x402 payment paid, to the chain's Reputation Registry, with
 * the payment as `proofOfPayment` in the feedback file (a `data:` URI, its keccak256 as the hash).
 * It goes through the money path like any contract call (policy, gas); the payee must be a
 * registered agent (the agentId it claimed, or one AgentWallet registered for it).
 * @example await rateCounterparty(ctx, agent, { wallet, payment: 'tx_…', score: '95' })
 */
export async function rateCounterparty(
  ctx: AgentWalletContext,
  principal: Principal,
  input: RateCounterpartyInput,
  options: Pick<SubmitOptions, 'idempotencyKey'> = {},
): Promise<RateCounterpartyAnswer> {
  const wallet = await findWallet(ctx, principal, input.wallet)
  const payment = await ctx.storage.get('transactions', input.payment)
  if (!payment || payment.walletId !== wallet.id || payment.kind !== 'x402_payment')
    throw new NotFoundError('x402 payment', { details: { payment: input.payment, wallet: wallet.address } })
  if (payment.status !== 'confirmed' || !payment.hash) {
    throw new BaseError(
      'validation_failed',
      'Only a settled x402 payment (with its settlement tx) can be rated',
      {
        details: { payment: payment.id, status: payment.status },
      },
    )
  }
  const chain = ctx.chains.get(payment.chain)
  const reputationRegistry = chain.contracts.erc8004?.reputationRegistry
  if (!reputationRegistry)
    throw new BaseError(
      'unsupported_protocol',
      `Chain "${chain.name}" has no ERC-8004 Reputation Registry configured`,
      {
        details: { chain: chain.name, protocol: 'erc8004' },
      },
    )
  const facts = await counterpartyFacts(ctx, intentOf(payment), [])
  if (!facts.agentId)
    throw new NotFoundError('ERC-8004 agent of the payee', {
      details: { payee: payment.to, reason: facts.reason },
    })
  const [whole = '0', fraction = ''] = input.score.split('.')
  const valueDecimals = fraction.length
  const value = parseUnits(input.score, valueDecimals)
  if (valueDecimals > 18 || value >= 10n ** 38n)
    throw new BaseError('validation_failed', 'score must be below 1e38 with at most 18 decimals', {
      details: { score: `${whole}.${fraction}` },
    })
  const proofOfPayment = {
    fromAddress: payment.from,
    toAddress: payment.to,
    chainId: String(payment.chainId),
    txHash: payment.hash,
  }
  const endpoint = String(payment.meta?.resource ?? '')
  const file = JSON.stringify({
    agentRegistry: `eip155:${payment.chainId}:${facts.registry}`,
    agentId: Number(facts.agentId),
    clientAddress: `eip155:${payment.chainId}:${payment.from}`,
    createdAt: ctx.now().toISOString(),
    value: value.toString(),
    valueDecimals,
    tag1: input.tag1,
    tag2: input.tag2,
    endpoint,
    proofOfPayment,
  })
  const feedbackURI = `data:application/json;base64,${Buffer.from(file).toString('base64')}`
  const feedbackHash = keccak256(stringToBytes(file))
  const data = encodeFunctionData({
    abi: reputationRegistryAbi,
    functionName: 'giveFeedback',
    args: [
      BigInt(facts.agentId),
      value,
      valueDecimals,
      input.tag1,
      input.tag2,
      endpoint,
      feedbackURI,
      feedbackHash,
    ],
  })
  const draft: IntentDraft = {
    kind: 'identity',
    chain: chain.name,
    to: reputationRegistry,
    asset: { address: 'native', symbol: chain.nativeSymbol, decimals: chain.nativeDecimals },
    amount: 0n,
    call: { to: reputationRegistry, value: 0n, data },
    meta: { protocol: 'erc8004', step: 'giveFeedback', agentId: facts.agentId, payment: payment.id },
  }
  const result = await submitIntent(ctx, principal, wallet, draft, {
    idempotencyKey: options.idempotencyKey,
    request: { address: wallet.address, ...input },
  })
  const answer: SendAnswer = toSendAnswer(ctx, result)
  return { ...answer, feedback: { agentId: facts.agentId, feedbackURI, feedbackHash, proofOfPayment } }
}

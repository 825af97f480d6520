import { keccak256 } from 'viem'
import { isTransportError, toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { NotFoundError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { walletLockKey, withLock } from '../storage/withLock.js'
import { findRequestedTransaction } from './getTransaction.js'
import { judgeReplacement, type ReplacementMode } from './judgeReplacement.js'
import { markReplaced } from './laneTransitions.js'
import { refreshCall } from './refreshCall.js'
import { replacementFees } from './replacementFees.js'
import type { ReplacementAnswer, ReplacementInput } from './replacementSchema.js'
import { viewOf } from './sendAnswer.js'
import { settleSubmitted } from './submittedBatch.js'
import { transactionRequest } from './transactionRequest.js'
import { isSubmittedTransaction, type SubmittedTransaction, type TransactionRecord } from './types.js'

/** The gas of a plain transfer to an account without code: a cancel's self-transfer. */
const transferGas = 21_000n

/**
 * Signs a submitted tx again at its nonce with higher fees, as its wallet's agent or an admin asks:
 * `speed_up` keeps its call (a lapsed deadline in it made again, see `refreshCall`); `cancel` signs
 * a zero-value transfer to the wallet itself instead. Under the wallet lock: judged by the policy
 * (`judgeReplacement`), fees raised (`replacementFees`), funds checked, then the new signature is
 * committed beside the old ones (`markReplaced`: whichever is mined wins) before it is broadcast.
 * A node that refuses it answers the refusal; the record keeps the signature and the tracker
 * follows every one of them as for any replacement.
 * @example const { transaction } = await replaceSubmitted(ctx, agent, { transaction: id }, 'cancel')
 */
export async function replaceSubmitted(
  ctx: AgentWalletContext,
  principal: Principal,
  input: ReplacementInput,
  mode: ReplacementMode,
): Promise<ReplacementAnswer> {
  const found = await findRequestedTransaction(ctx, principal, input)
  const wallet = await ctx.storage.get('wallets', found.walletId)
  if (!wallet) throw new NotFoundError('Transaction', { details: { hash: input.transaction } })
  const chain = ctx.chains.get(found.chain)
  return withLock(ctx.storage, [walletLockKey(found.from)], async () => {
    // A send answers `submitted` before that status is saved (`queueSubmitted`): saved first.
    await settleSubmitted(ctx.storage)
    const record = (await ctx.storage.get('transactions', found.id)) ?? found
    // A smart wallet's user operation has no tx of its own to replace.
    if (!isSubmittedTransaction(record)) throw notPending(record, mode)
    // A speed-up of a pending cancel speeds the cancel up: it stays a cancel, judged as one.
    const signing: ReplacementMode = record.cancels ? 'cancel' : mode
    await judgeReplacement(ctx, wallet, record, signing)
    const market = await chain.client.estimateFeesPerGas().catch((error: unknown) => {
      throw toChainError(error, chain.name, { read: true })
    })
    const fees = replacementFees(ctx, record, market, input.maxFeePerGas)
    const call = await callOf(ctx, chain, record, signing)
    const limit = signing === 'cancel' ? transferGas : BigInt(record.gas.limit)
    await assertPayable(chain, record, BigInt(call.value) + limit * fees.maxFeePerGas)
    const signer = await ctx.vault.getSigner(record.from)
    const rawTx = await signer.signTransaction(
      transactionRequest(chain, call, {
        nonce: record.nonce,
        gas: limit,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      }),
    )
    const next = await markReplaced(ctx, record, {
      call,
      gas: {
        limit: limit.toString(),
        maxFeePerGas: fees.maxFeePerGas.toString(),
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
      },
      rawTx,
      hash: keccak256(rawTx),
      ...(signing === 'cancel' ? { cancels: true } : {}),
    })
    // Committed first, so a signature the node took is never unknown to the record; a transport
    // failure leaves it to the tracker's rebroadcast.
    await chain.client.sendRawTransaction({ serializedTransaction: rawTx }).catch((error: unknown) => {
      if (!isTransportError(error)) throw toChainError(error, chain.name)
    })
    return { transaction: viewOf(ctx, next), replaces: record.hash }
  })
}

/** A speed-up keeps the call (a lapsed deadline in it made again); a cancel sends nothing to itself. */
async function callOf(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: SubmittedTransaction,
  mode: ReplacementMode,
): Promise<SubmittedTransaction['call']> {
  if (mode === 'cancel') return { to: record.from, value: '0' }
  return (await refreshCall(ctx, chain, record)).call
}

async function assertPayable(chain: ChainHandle, record: SubmittedTransaction, cost: bigint): Promise<void> {
  const balance = await chain.client.getBalance({ address: record.from }).catch((error: unknown) => {
    throw toChainError(error, chain.name, { read: true })
  })
  if (balance < cost)
    throw new BaseError('insufficient_funds', 'The wallet cannot pay the higher fees of the new signature', {
      details: {
        chain: chain.name,
        transactionId: record.id,
        need: cost.toString(),
        have: balance.toString(),
      },
    })
}

function notPending(record: TransactionRecord, mode: ReplacementMode): BaseError {
  const verb = mode === 'cancel' ? 'cancelled' : 'sped up'
  return new BaseError(
    'transaction_not_pending',
    `Only a submitted, unmined transaction can be ${verb}; this one is ${record.status}`,
    { details: { transactionId: record.id, status: record.status } },
  )
}

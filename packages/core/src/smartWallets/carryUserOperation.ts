import { getUserOperationHash } from 'viem/account-abstraction'
import type { Bundler } from '../bundler/types.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { isAgentWalletError } from '../errors/baseError.js'
import { NotFoundError, NotImplementedError } from '../errors/errors.js'
import { userOperationLockKey, withLock } from '../storage/withLock.js'
import { markFailed } from '../transactions/transitions.js'
import {
  isSigned,
  type TransactionRecord,
  type UnpausedTransaction,
  type UnsignedQueuedTransaction,
} from '../transactions/types.js'
import { carriedCalls } from './carriedCalls.js'
import { fundSession } from './fundSession.js'
import { sessionUserOperation } from './sessionUserOperation.js'
import { sponsorUserOperation } from './sponsorUserOperation.js'
import { fromStoredUserOperation, toStoredUserOperation } from './storedUserOperation.js'
import { markUserOperationSubmitted, saveUserOperation } from './userOperationTransitions.js'

/**
 * Carries a smart wallet's accepted intent (its carrier, `userOperationCarrier`) as a user operation (its `calls`, a batch, in
 * one op: all or none): sponsored by the tenant's paymaster while its `sponsor_gas` rules leave room
 * (`sponsorUserOperation`), else the session account readied to pay (`fundSession`); the op built and
 * signed by the session key (`sessionUserOperation`), saved on
 * the record (durable) and only then handed to the bundler → `submitted`. An op already saved is
 * handed on as saved: a crash anywhere leaves at most one op for the intent (its own nonce key), and
 * the bundler answers the same hash for it again. A refusal (`user_operation_rejected`, a call the
 * session's delegations do not cover) fails the intent; a node or bundler out of reach, or a session
 * account not ready yet, leaves it queued for the tracker.
 * @example const sending = carryUserOperation(ctx, chain, record)
 */
export async function carryUserOperation(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  candidate: UnsignedQueuedTransaction,
): Promise<UnpausedTransaction> {
  let record: TransactionRecord = candidate
  try {
    const bundler = bundlerOf(ctx, candidate)
    if (!candidate.userOperation) {
      // One carrier at a time per wallet (the request and a tracker pass): one owner op, one signature.
      const saved = await withLock(ctx.storage, [userOperationLockKey(candidate.walletId)], () =>
        signIntentUserOperation(ctx, chain, bundler, candidate),
      )
      if (!saved) return candidate
      record = saved
    }
    if (record.status !== 'queued' || isSigned(record) || !record.userOperation)
      return record as UnpausedTransaction
    const stored = record.userOperation
    await bundler.sendUserOperation(fromStoredUserOperation(stored), stored.entryPoint)
    return await markUserOperationSubmitted(ctx, { ...record, userOperation: stored })
  } catch (error) {
    if (!isAgentWalletError(error)) throw error
    if (error.code === 'chain_unavailable') return record as UnpausedTransaction
    const current = await ctx.storage.get('transactions', record.id)
    if (current?.status !== 'queued' && current?.status !== 'submitted')
      return (current ?? record) as UnpausedTransaction
    return markFailed(ctx, current, error)
  }
}

/** The op built, signed and saved on the record; undefined while the session account is not ready. */
async function signIntentUserOperation(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  bundler: Bundler,
  candidate: UnsignedQueuedTransaction,
): Promise<TransactionRecord | undefined> {
  const record = await ctx.storage.get('transactions', candidate.id)
  if (record?.status !== 'queued' || isSigned(record) || record.userOperation) return record
  const wallet = await ctx.storage.get('wallets', record.walletId)
  const smart = wallet?.smart
  if (!wallet || !smart) throw new NotFoundError('Wallet', { details: { walletId: record.walletId } })
  const paymaster = ctx.paymasterOf?.(record.tenantId, chain.name)
  if (paymaster) {
    const sponsored = await sponsorUserOperation(ctx, chain, bundler, { record, wallet, smart, paymaster })
    if (sponsored !== 'unsponsored') return sponsored
  }
  if ((await fundSession(ctx, chain, wallet, smart, bundler)) === 'waiting') return undefined
  const { op, entryPoint } = await sessionUserOperation(ctx, chain, smart, bundler, {
    intentId: record.id,
    calls: carriedCalls(record),
  })
  const hash = getUserOperationHash({
    chainId: chain.chainId,
    entryPointAddress: entryPoint,
    entryPointVersion: '0.8',
    userOperation: op,
  })
  return saveUserOperation(ctx, record, toStoredUserOperation(op, { hash, entryPoint }))
}

/** The bundler the composition root set for the record's tenant and chain. */
export function bundlerOf(
  ctx: AgentWalletContext,
  record: Pick<TransactionRecord, 'tenantId' | 'chain'>,
): Bundler {
  const bundler = ctx.bundlerOf?.(record.tenantId, record.chain)
  if (!bundler) throw new NotImplementedError('Sending user operations without a bundler')
  return bundler
}

import { parseEventLogs } from 'viem'
import { ensControllerAbi } from '../chain/ensAbis.js'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError, isAgentWalletError } from '../errors/baseError.js'
import { appendEvent } from '../events/appendEvent.js'
import { sleep } from '../operations/backgroundOperations.js'
import { operationError } from '../operations/failOperation.js'
import { type IncludedTransaction, isIncluded, stepFailed, waitFinal } from '../operations/operationSteps.js'
import { chainUnavailable, type StepMachine } from '../operations/stepMachine.js'
import { submitStep } from '../operations/submitStep.js'
import { isMined } from '../transactions/types.js'
import { commitDraft, registerDraft, reverseDraft } from './ensDrafts.js'
import { readRentPrice } from './readRentPrice.js'
import {
  activeEnsStatuses,
  type CommittedEnsRegistration,
  type CommittingEnsRegistration,
  type EnsRegistrationRecord,
  type RegisteredEnsRegistration,
  type RegisteringEnsRegistration,
} from './types.js'

/** How often a chain or storage condition is polled while waiting. */
const pollMs = 250
/** A reveal refused at estimation (commitment not old enough yet by the node's clock) is tried this often. */
const maxRevealAttempts = 20

/** The steps of a registration: one per status, and the reverse record after the register. */
export type EnsStep = 'commit' | 'commitmentAge' | 'register' | 'reverse'

/**
 * A `.eth` registration as a step machine, one step per status, each transition persisted:
 * committing (commit tx confirmed) → committed (commitment old enough) → registering (register,
 * then the optional reverse record) → registered, with `ens.registered` in the same commit. Every
 * tx goes through the money path under its step's key (`ens:{id}:{step}`), so a resumed run (after
 * a restart) replays instead of re-sending.
 */
export const ensRegistration: StepMachine<EnsRegistrationRecord, EnsStep> = {
  name: 'ens',
  collection: 'ens_names',
  activeStatuses: activeEnsStatuses,
  idName: 'registrationId',
  load: (ctx, id) => ctx.storage.get('ens_names', id),
  save: (tx, record) => tx.put('ens_names', record),
  stepOf(record) {
    if (record.status === 'committing') return 'commit'
    if (record.status === 'committed') return 'commitmentAge'
    return record.reverseTransactionId ? 'reverse' : 'register'
  },
  steps: {
    commit: {},
    commitmentAge: {},
    register: {
      retryable(error, record) {
        const retry = chainUnavailable(error)
        if (retry || record.registerTransactionId) return retry
        // The node estimated the reveal against a clock that had not yet passed the commitment age.
        return isAgentWalletError(error) && error.code === 'transaction_failed'
          ? { reason: 'reveal_too_early', afterMs: 1_000, attempts: maxRevealAttempts }
          : undefined
      },
    },
    reverse: {},
  },
  advance(ctx, record, { signal }) {
    if (record.status === 'committing') return confirmCommit(ctx, record, signal)
    if (record.status === 'committed') return awaitCommitmentAge(ctx, record, signal)
    if (record.status === 'registering') return register(ctx, record, signal)
    // The kernel advances active records only: an ended one stays as it is.
    return Promise.resolve(record)
  },
  failed: (record, error) => ({ ...record, status: 'failed', error }),
}

/** Registered on chain (and its reverse record set or given up), ready to be finished. */
type Registered = RegisteringEnsRegistration &
  Pick<RegisteredEnsRegistration, 'registerTransactionId' | 'registerHash'>

async function confirmCommit(
  ctx: AgentWalletContext,
  record: CommittingEnsRegistration,
  signal: AbortSignal,
): Promise<EnsRegistrationRecord | undefined> {
  const chain = ctx.chains.get(record.chain)
  const transactionId =
    record.commitTransactionId ??
    (await submitStep(ctx, ensRegistration, record, 'commit', commitDraft(chain, record))).transaction.id
  const done = await waitFinal(ctx, transactionId, signal)
  if (!done) return undefined
  if (!isIncluded(done)) throw stepFailed('ENS', 'commit', done)
  const block = await blockOf(chain, done)
  return save(ctx, {
    ...record,
    status: 'committed',
    commitTransactionId: done.id,
    commitHash: done.hash,
    committedAt: Number(block.timestamp),
  })
}

async function awaitCommitmentAge(
  ctx: AgentWalletContext,
  record: CommittedEnsRegistration,
  signal: AbortSignal,
): Promise<EnsRegistrationRecord | undefined> {
  const chain = ctx.chains.get(record.chain)
  const contract = { address: record.controller, abi: ensControllerAbi } as const
  const [minAge, maxAge] = await Promise.all([
    chain.client.readContract({ ...contract, functionName: 'minCommitmentAge' }),
    chain.client.readContract({ ...contract, functionName: 'maxCommitmentAge' }),
  ]).catch((error: unknown) => {
    throw toChainError(error, chain.name)
  })
  // The controller accepts a reveal in a block with timestamp >= commit time + minCommitmentAge.
  const readyAt = record.committedAt + Number(minAge)
  while (!signal.aborted) {
    const now = await chainTime(chain)
    if (now > record.committedAt + Number(maxAge)) {
      throw new BaseError(
        'transaction_failed',
        'The commitment expired before the name could be registered',
        {
          details: {
            registrationId: record.id,
            committedAt: record.committedAt,
            maxCommitmentAge: Number(maxAge),
          },
        },
      )
    }
    if (now >= readyAt) return save(ctx, { ...record, status: 'registering' })
    await sleep(Math.min(pollMs * 4, (readyAt - now) * 1000), signal)
  }
  return undefined
}

/**
 * The earliest timestamp the next block is sure to carry: not before the latest block, and not
 * before the wall clock. A chain may give several blocks within one second the same timestamp (the
 * devnet does), so the latest block's time, not one past it; a chain that ran ahead of the wall
 * clock is waited for by its own latest block.
 */
async function chainTime(chain: ChainHandle): Promise<number> {
  const block = await chain.client.getBlock().catch((error: unknown) => {
    throw toChainError(error, chain.name)
  })
  return Math.max(Number(block.timestamp), Math.floor(Date.now() / 1000))
}

async function register(
  ctx: AgentWalletContext,
  initial: RegisteringEnsRegistration,
  signal: AbortSignal,
): Promise<EnsRegistrationRecord | undefined> {
  const chain = ctx.chains.get(initial.chain)
  const record = await submitRegister(ctx, chain, initial)
  const done = await waitFinal(ctx, record.registerTransactionId, signal)
  if (!done) return undefined
  if (!isIncluded(done)) throw stepFailed('ENS', 'register', done)
  let registered: Registered = { ...record, registerHash: done.hash, expires: await expiresOf(chain, done) }
  if (registered.setReverse && !registered.reverseHash && !registered.reverseError) {
    registered = await setReverse(ctx, chain, registered, signal)
    if (signal.aborted) return undefined
  }
  return finish(ctx, registered)
}

/** The register tx through the money path (once: a resumed run finds its id). */
async function submitRegister(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: RegisteringEnsRegistration,
): Promise<RegisteringEnsRegistration & { registerTransactionId: string }> {
  const { registerTransactionId } = record
  if (registerTransactionId) return { ...record, registerTransactionId }
  const rent = await readRentPrice(chain, record.controller, record.label, record.durationSeconds).catch(
    (error: unknown) => {
      throw toChainError(error, chain.name)
    },
  )
  const { transaction, approval } = await submitStep(
    ctx,
    ensRegistration,
    record,
    'register',
    registerDraft(chain, record, rent.total),
  )
  return save(ctx, {
    ...record,
    registerTransactionId: transaction.id,
    rentWei: rent.total.toString(),
    approvalId: approval?.id,
  })
}

async function setReverse(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: Registered,
  signal: AbortSignal,
): Promise<Registered> {
  // The name is registered whatever happens here: a failed reverse record is reported, not fatal.
  try {
    const transactionId =
      record.reverseTransactionId ??
      (await submitStep(ctx, ensRegistration, record, 'reverse', reverseDraft(chain, record))).transaction.id
    const saved = await save(ctx, { ...record, reverseTransactionId: transactionId })
    const done = await waitFinal(ctx, transactionId, signal)
    if (!done) return saved
    if (done.status !== 'confirmed')
      return { ...saved, reverseError: { code: 'transaction_failed', message: `reverse ${done.status}` } }
    return { ...saved, reverseHash: done.hash }
  } catch (error) {
    if (isAgentWalletError(error) && error.code === 'chain_unavailable') throw error
    return { ...record, reverseError: operationError(error) }
  }
}

/** The block the step's transaction is in (a smart wallet's record names none: its carrier's receipt does). */
async function blockOf(chain: ChainHandle, done: IncludedTransaction) {
  try {
    const blockNumber = isMined(done)
      ? BigInt(done.blockNumber)
      : (await chain.client.getTransactionReceipt({ hash: done.hash })).blockNumber
    return await chain.client.getBlock({ blockNumber })
  } catch (error) {
    throw toChainError(error, chain.name)
  }
}

async function expiresOf(chain: ChainHandle, done: IncludedTransaction): Promise<number | undefined> {
  const receipt = await chain.client.getTransactionReceipt({ hash: done.hash }).catch((error: unknown) => {
    throw toChainError(error, chain.name)
  })
  const [event] = parseEventLogs({ abi: ensControllerAbi, logs: receipt.logs, eventName: 'NameRegistered' })
  return event ? Number(event.args.expires) : undefined
}

async function save<Record extends EnsRegistrationRecord>(
  ctx: AgentWalletContext,
  record: Record,
): Promise<Record> {
  const next = { ...record, updatedAt: ctx.now().toISOString() }
  await ctx.storage.transaction([], (tx) => tx.put('ens_names', next))
  return next
}

/** registering → registered, with `ens.registered` in the same commit. */
async function finish(ctx: AgentWalletContext, record: Registered): Promise<RegisteredEnsRegistration> {
  const now = ctx.now().toISOString()
  const next: RegisteredEnsRegistration = {
    ...record,
    status: 'registered',
    registeredAt: now,
    updatedAt: now,
  }
  await ctx.storage.transaction([], async (tx) => {
    await tx.put('ens_names', next)
    appendEvent(ctx, tx, next.tenantId, 'ens.registered', {
      registrationId: next.id,
      name: next.name,
      chain: next.chain,
      walletId: next.walletId,
      owner: next.owner,
      expires: next.expires,
      rentWei: next.rentWei,
      hash: next.registerHash,
      reverseName: next.reverseHash !== undefined,
    })
  })
  return next
}

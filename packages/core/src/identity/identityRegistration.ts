import { type Address, encodeFunctionData, type Hex, parseEventLogs, toHex } from 'viem'
import { identityRegistryAbi } from '../chain/identityRegistryAbi.js'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { appendEvent } from '../events/appendEvent.js'
import type { IntentDraft } from '../intents/types.js'
import { type IncludedTransaction, isIncluded, stepFailed, waitFinal } from '../operations/operationSteps.js'
import type { StepMachine } from '../operations/stepMachine.js'
import { submitStep } from '../operations/submitStep.js'
import { waitForFinalStatus } from '../transactions/waitForTransaction.js'
import { agentWalletCall, resignAgentWalletCall } from './agentWalletCall.js'
import { buildRegistrationFile, toDataUri } from './registrationFile.js'
import {
  type ActiveIdentity,
  activeIdentityStatuses,
  agentRegistryId,
  type IdentityRecord,
  type IdentityStep,
  isActiveIdentity,
  isMinted,
  type MintedIdentity,
  type MintingIdentity,
  type RegisteredIdentity,
} from './types.js'

/**
 * An ERC-8004 registration as a step machine, each transition persisted: register (mint) →
 * setAgentURI (the registration file, which names the agentId) → setAgentWallet (only when the
 * registry has not bound the agent wallet) → registered, with `identity.registered` in the same
 * commit. Every step goes through the money path, as the requesting principal, under its step's key
 * (`identity:{id}:{step}`), so a resumed run replays instead of re-sending. A step the policy pauses
 * leaves the record `awaiting_approval`: the paused transaction's outcome (confirmed after approval;
 * rejected or expired) decides whether the next step runs or the registration fails.
 */
export const identityRegistration: StepMachine<IdentityRecord, IdentityStep> = {
  name: 'identity',
  collection: 'identities',
  activeStatuses: activeIdentityStatuses,
  idName: 'registrationId',
  load: (ctx, id) => ctx.storage.get('identities', id),
  save: (tx, record) => tx.put('identities', record),
  stepOf: (record) => record.step ?? 'register',
  steps: {
    register: {},
    setAgentURI: {},
    // The agent wallet's signature has a deadline: a paused or stuck step is signed again.
    setAgentWallet: { refreshCall: resignAgentWalletCall },
  },
  async advance(ctx, record, { signal, foreground }) {
    // The kernel advances active records only: an ended one stays as it is.
    if (!isActiveIdentity(record)) return record
    const step = record.step ?? 'register'
    const transactionId = record.transactions[step]
    if (!transactionId) return submit(ctx, record)
    // A request waits for the tracker's event, bounded; the background polls until it is stopped.
    const done = foreground
      ? await waitForFinalStatus(ctx, transactionId, { timeoutMs: 120_000 })
      : await waitFinal(ctx, transactionId, signal)
    if (!done) return undefined
    if (!isIncluded(done)) throw stepFailed('identity', step, done)
    return completeStep(ctx, record, done)
  },
  failed: (record, error) => ({ ...record, status: 'failed', error }),
}

/** Sends the record's step through the money path (replayed by its key) and records its transaction. */
async function submit(ctx: AgentWalletContext, record: ActiveIdentity): Promise<IdentityRecord> {
  if (!isMinted(record)) return send(ctx, record, 'register', mintCall(record))
  const chain = ctx.chains.get(record.chain)
  const data = await mintedCall(ctx, chain, record)
  // The registry already binds the agent wallet: nothing left to send.
  if (!data) return finish(ctx, record)
  return send(ctx, record, record.step, data)
}

async function send<Record extends ActiveIdentity>(
  ctx: AgentWalletContext,
  record: Record,
  step: IdentityStep,
  data: Hex,
): Promise<IdentityRecord> {
  const chain = ctx.chains.get(record.chain)
  const draft: IntentDraft = {
    kind: 'identity',
    chain: chain.name,
    to: record.registry,
    asset: { address: 'native', symbol: chain.nativeSymbol, decimals: chain.nativeDecimals },
    amount: 0n,
    call: { to: record.registry, value: 0n, data },
    meta: {
      protocol: 'erc8004',
      step,
      registrationId: record.id,
      walletAddress: record.walletAddress,
      agentName: record.agentName,
    },
  }
  // The owner wallet mints, owns the NFT and pays gas.
  const owner = record.ownerWalletId ?? record.walletId
  const result = await submitStep(ctx, identityRegistration, record, step, draft, owner)
  return save(ctx, {
    ...record,
    step,
    status: result.status === 'pending_approval' ? 'awaiting_approval' : 'registering',
    approvalId: result.approval?.id,
    transactions: { ...record.transactions, [step]: result.transaction.id },
  })
}

/** The mint: without a URI, since the file names its own agentId, known only after the mint. */
function mintCall(record: MintingIdentity): Hex {
  const metadata = [
    { metadataKey: 'agentName', metadataValue: toHex(record.agentName) },
    { metadataKey: 'agentType', metadataValue: toHex(record.agentType) },
  ]
  return encodeFunctionData({ abi: identityRegistryAbi, functionName: 'register', args: ['', metadata] })
}

/** The calldata of a step after the mint; undefined for a `setAgentWallet` the registry made unnecessary. */
async function mintedCall(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: MintedIdentity,
): Promise<Hex | undefined> {
  const agentId = BigInt(record.agentId)
  if (record.step === 'setAgentURI') {
    return encodeFunctionData({
      abi: identityRegistryAbi,
      functionName: 'setAgentURI',
      args: [agentId, record.agentURI],
    })
  }
  const contract = { address: record.registry, abi: identityRegistryAbi } as const
  const current = await chain.client
    .readContract({ ...contract, functionName: 'getAgentWallet', args: [agentId] })
    .catch((error: unknown) => {
      throw toChainError(error, chain.name)
    })
  if (current.toLowerCase() === record.walletAddress.toLowerCase()) return undefined
  // Signed now for a step that runs now; a step that pauses is signed again when it is approved
  // (`refreshCall`): the approval covers binding this wallet, not a signature with a deadline.
  return agentWalletCall(ctx, chain, {
    registry: record.registry,
    agentId,
    agentWallet: record.walletAddress,
    owner: record.ownerAddress,
    tenantId: record.tenantId,
  })
}

/** A confirmed step: record its hash (and after the mint, the agentId and agentURI), then move on. */
async function completeStep(
  ctx: AgentWalletContext,
  record: ActiveIdentity,
  done: IncludedTransaction,
): Promise<IdentityRecord> {
  const hashes = { ...record.hashes, [record.step ?? 'register']: done.hash }
  if (!isMinted(record)) {
    const chain = ctx.chains.get(record.chain)
    const agentId = await agentIdOf(chain, record.registry, done.hash)
    const agentURI = toDataUri(
      buildRegistrationFile({
        ...record,
        agentId,
        agentRegistry: agentRegistryId(record.chainId, record.registry),
      }),
    )
    return save(ctx, {
      ...record,
      status: 'registering',
      step: 'setAgentURI',
      approvalId: undefined,
      agentId: agentId.toString(),
      agentURI,
      hashes,
    })
  }
  if (record.step === 'setAgentURI') {
    return save(ctx, {
      ...record,
      status: 'registering',
      step: 'setAgentWallet',
      approvalId: undefined,
      hashes,
    })
  }
  return finish(ctx, { ...record, hashes })
}

/** → registered, with `identity.registered` in the same commit. */
async function finish(ctx: AgentWalletContext, record: MintedIdentity): Promise<RegisteredIdentity> {
  const now = ctx.now().toISOString()
  const next: RegisteredIdentity = {
    ...record,
    status: 'registered',
    step: undefined,
    approvalId: undefined,
    registeredAt: now,
    updatedAt: now,
  }
  await ctx.storage.transaction([], async (tx) => {
    await tx.put('identities', next)
    appendEvent(ctx, tx, next.tenantId, 'identity.registered', {
      agentId: next.agentId,
      chain: next.chain,
      chainId: next.chainId,
      agentRegistry: agentRegistryId(next.chainId, next.registry),
      walletId: next.walletId,
      walletAddress: next.walletAddress,
      ownerAddress: next.ownerAddress,
      agentName: next.agentName,
      agentType: next.agentType,
      hash: next.hashes.register,
    })
  })
  return next
}

async function agentIdOf(chain: ChainHandle, registry: Address, hash: `0x${string}`): Promise<bigint> {
  const receipt = await chain.client.getTransactionReceipt({ hash }).catch((error: unknown) => {
    throw toChainError(error, chain.name)
  })
  const [registered] = parseEventLogs({
    abi: identityRegistryAbi,
    logs: receipt.logs,
    eventName: 'Registered',
  }).filter((log) => log.address.toLowerCase() === registry.toLowerCase())
  if (!registered) {
    throw new BaseError('transaction_failed', 'The register transaction emitted no Registered event', {
      details: { chain: chain.name, hash },
    })
  }
  return registered.args.agentId
}

async function save<Record extends IdentityRecord>(ctx: AgentWalletContext, record: Record): Promise<Record> {
  const next = { ...record, updatedAt: ctx.now().toISOString() }
  await ctx.storage.transaction([], (tx) => tx.put('identities', next))
  return next
}

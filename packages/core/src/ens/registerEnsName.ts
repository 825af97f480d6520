import { type Hex, toHex } from 'viem'
import type { z } from 'zod'
import { ensControllerAbi } from '../chain/ensAbis.js'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { ConflictError, NotFoundError, PolicyBlockedError, ValidationError } from '../errors/errors.js'
import { type IdempotencyOptions, withIdempotency } from '../idempotency/withIdempotency.js'
import { runOperation } from '../operations/backgroundOperations.js'
import { failOperation } from '../operations/failOperation.js'
import { submitStep } from '../operations/submitStep.js'
import { auditDecision } from '../policy/auditDecision.js'
import { evaluateIntent } from '../policy/evaluateIntent.js'
import type { Principal } from '../principals/types.js'
import { canSee, findWallet } from '../wallets/findWallet.js'
import { requireAccountWallet } from '../wallets/requireAccountWallet.js'
import type { WalletRecord } from '../wallets/types.js'
import { ensContractsOf, requireEnsContract } from './ensContractsOf.js'
import { commitDraft, registerDraft, valueWithBuffer } from './ensDrafts.js'
import { ensRegistration } from './ensRegistration.js'
import { durationOf, type registerEnsSchema } from './ensSchemas.js'
import { type ParsedEthName, parseEthName } from './parseEnsName.js'
import { readRentPrice } from './readRentPrice.js'
import {
  activeEnsStatuses,
  type EnsRegistration,
  type EnsRegistrationRecord,
  toEnsRegistration,
} from './types.js'

/** Gas a registration spends at most (commit + register with resolver records + reverse), for the funds check. */
const gasBudget = { commit: 60_000n, register: 400_000n, reverse: 150_000n }

/**
 * Registers a `.eth` name as a tracked operation. Eligibility first (DESIGN §6), each failure with its
 * own code: a valid ENSIP-15 name `label.eth` with ≥3 characters (`validation_failed`), available
 * (`conflict`), a wallet that can pay rent + buffer + gas (`insufficient_funds`), a rent the policy
 * allows (`policy_blocked`). Then the commit goes through the money path, the record is returned at
 * once (status `committing`) and the rest runs in the background: wait for the controller's minimum
 * commitment age → register with the public resolver and the address record → optional reverse
 * record → `registered` and `ens.registered`. Unfinished registrations resume at start.
 * @example const { registration } = await registerEnsName(ctx, principal, { name: 'my-agent.eth', setReverse: true })
 */
export async function registerEnsName(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof registerEnsSchema>,
  options: IdempotencyOptions = {},
): Promise<{ status: EnsRegistration['status']; registration: EnsRegistration }> {
  return withIdempotency(ctx, principal, 'ens.register', input, options, async () => {
    const registration = await startRegistration(ctx, principal, input)
    return { status: registration.status, registration }
  })
}

async function startRegistration(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof registerEnsSchema>,
): Promise<EnsRegistration> {
  const parsed = parseEthName(input.name)
  const wallet = requireAccountWallet(
    input.wallet ? await findWallet(ctx, principal, input.wallet) : await onlyWallet(ctx, principal),
    'register an ENS name',
  )
  const chain = ctx.chains.get(input.chain ?? wallet.chain)
  const controller = requireEnsContract(chain, 'controller')
  const resolver = requireEnsContract(chain, 'publicResolver')
  if (input.setReverse) requireEnsContract(chain, 'reverseRegistrar')
  if (ensContractsOf(chain).controllerAbi === 'current') {
    throw new BaseError(
      'unsupported_protocol',
      'Registering through the current (2023+) ENS controller ABI is not supported yet',
      {
        details: { chain: chain.name, controller },
      },
    )
  }
  const durationSeconds = durationOf(input)
  const secret = toHex(crypto.getRandomValues(new Uint8Array(32)))
  const { rent, commitment } = await checkEligibility(ctx, chain, wallet, parsed, {
    controller,
    resolver,
    durationSeconds,
    secret,
    setReverse: input.setReverse ?? false,
  })

  const now = ctx.now().toISOString()
  const record: EnsRegistrationRecord = {
    id: ctx.newId('ens'),
    tenantId: wallet.tenantId,
    walletId: wallet.id,
    ownerId: wallet.ownerId,
    requestedBy: { id: principal.id, role: principal.role },
    chain: chain.name,
    chainId: chain.chainId,
    name: parsed.name,
    label: parsed.label,
    node: parsed.node,
    owner: wallet.address,
    durationSeconds,
    controller,
    resolver,
    secret,
    commitment,
    setReverse: input.setReverse ?? false,
    rentWei: rent.toString(),
    status: 'committing',
    createdAt: now,
    updatedAt: now,
  }
  await ctx.storage.transaction([`ens:${chain.chainId}:${parsed.name}`], async (tx) => {
    const inFlight = await tx.query('ens_names', {
      where: { name: parsed.name, chain: chain.name, status: activeEnsStatuses },
      limit: 1,
    })
    if (inFlight.length > 0) {
      throw new ConflictError('A registration of this name is already in progress', {
        details: { name: parsed.name },
      })
    }
    await tx.insert('ens_names', record)
  })
  let saved = record
  try {
    const { transaction, approval } = await submitStep(
      ctx,
      ensRegistration,
      record,
      'commit',
      commitDraft(chain, record),
    )
    const approvalId = approval?.id
    saved = { ...record, commitTransactionId: transaction.id, approvalId, updatedAt: ctx.now().toISOString() }
    await ctx.storage.transaction([], (tx) => tx.put('ens_names', saved))
  } catch (error) {
    await failOperation(ctx, ensRegistration, record, error)
    throw error
  }
  runOperation(ctx, ensRegistration, saved.id)
  return toEnsRegistration(saved)
}

async function checkEligibility(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  wallet: WalletRecord,
  parsed: ParsedEthName,
  plan: {
    controller: `0x${string}`
    resolver: `0x${string}`
    durationSeconds: number
    secret: Hex
    setReverse: boolean
  },
): Promise<{ rent: bigint; commitment: Hex }> {
  const contract = { address: plan.controller, abi: ensControllerAbi } as const
  const [available, price, commitment, balance, fees] = await Promise.all([
    chain.client.readContract({ ...contract, functionName: 'available', args: [parsed.label] }),
    readRentPrice(chain, plan.controller, parsed.label, plan.durationSeconds),
    chain.client.readContract({
      ...contract,
      functionName: 'makeCommitmentWithConfig',
      args: [parsed.label, wallet.address, plan.secret, plan.resolver, wallet.address],
    }),
    chain.client.getBalance({ address: wallet.address, blockTag: 'pending' }),
    chain.client.estimateFeesPerGas(),
  ]).catch((error: unknown) => {
    throw toChainError(error, chain.name)
  })
  if (!available) {
    throw new ConflictError('This name is not available', {
      details: { name: parsed.name, chain: chain.name, reason: 'unavailable' },
    })
  }
  const gas = gasBudget.commit + gasBudget.register + (plan.setReverse ? gasBudget.reverse : 0n)
  const required = valueWithBuffer(price.total) + gas * fees.maxFeePerGas
  if (balance < required) {
    throw new BaseError(
      'insufficient_funds',
      'The wallet cannot pay the rent plus gas for this registration',
      {
        details: {
          chain: chain.name,
          balanceWei: balance.toString(),
          requiredWei: required.toString(),
          rentWei: price.total.toString(),
        },
      },
    )
  }
  // The rent passes the policy before anything is sent: a rule that would block the reveal blocks the request.
  const reveal = registerDraft(
    chain,
    { ...plan, label: parsed.label, owner: wallet.address, name: parsed.name },
    price.total,
  )
  const decision = await evaluateIntent(ctx, wallet, {
    kind: reveal.kind,
    chain: chain.name,
    from: wallet.address,
    to: reveal.to,
    asset: reveal.asset,
    amount: reveal.amount,
    data: reveal.call.data,
  })
  await ctx.storage.transaction([], async (tx) =>
    auditDecision(ctx, tx, wallet.tenantId, decision, { walletId: wallet.id }),
  )
  if (decision.decision === 'deny') {
    throw new PolicyBlockedError(decision.reason, {
      details: {
        ruleId: decision.ruleId,
        ruleType: decision.ruleType,
        step: 'register',
        ...decision.details,
      },
    })
  }
  return { rent: price.total, commitment }
}

/** The caller's only wallet; with none or several, the request must name one. */
async function onlyWallet(ctx: AgentWalletContext, principal: Principal): Promise<WalletRecord> {
  const wallets = (
    await ctx.storage.query('wallets', {
      where: { tenantId: principal.tenantId },
      limit: 2_000,
    })
  ).filter((wallet) => canSee(principal, wallet))
  if (wallets.length === 1) return wallets[0]!
  if (wallets.length === 0)
    throw new NotFoundError('Wallet', { details: { reason: 'the caller has no wallet' } })
  throw new ValidationError('The caller has several wallets: name the paying one in `wallet`', {
    details: { issues: [{ path: 'wallet', message: 'Required when the caller has several wallets' }] },
  })
}

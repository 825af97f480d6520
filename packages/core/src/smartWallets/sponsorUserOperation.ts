import { type Address, decodeAbiParameters, type Hex, slice } from 'viem'
import { getUserOperationHash } from 'viem/account-abstraction'
import { recordAudit } from '../audit/recordAudit.js'
import { maxGasCostOf } from '../bundler/maxGasCostOf.js'
import { sponsoredUserOperationsSince } from '../bundler/sponsoredGasSince.js'
import type { Bundler, SignedUserOperation, TenantPaymaster } from '../bundler/types.js'
import { verifyingPaymaster, verifyingPaymasterHash } from '../bundler/verifyingPaymaster.js'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { scopedRules } from '../policy/policyStore.js'
import { sponsorshipOf } from '../policy/sponsorshipOf.js'
import { accountAbstractionOf } from '../smartAccounts/accountAbstractionOf.js'
import type { PaymasterFields } from '../smartAccounts/buildUserOperation.js'
import { withLock } from '../storage/withLock.js'
import type { TransactionRecord, UnsignedQueuedTransaction } from '../transactions/types.js'
import type { SmartWalletFields, WalletRecord } from '../wallets/types.js'
import { carriedCalls } from './carriedCalls.js'
import { sessionState } from './fundSession.js'
import { signSessionUserOperation, unsignedSessionUserOperation } from './sessionUserOperation.js'
import { fromStoredUserOperation, toStoredUserOperation } from './storedUserOperation.js'
import { saveUserOperation } from './userOperationTransitions.js'

/**
 * A smart wallet's op for `record`, sponsored by the tenant's verifying paymaster when its
 * `sponsor_gas` rules leave room (`sponsorshipOf`): priced with the paymaster's stub, then — under the
 * tenant's sponsorship lock, so concurrent sends never pass the cap together — decided against the gas
 * the paymaster paid within the window (the chain's `UserOperationEvent` logs) plus the worst case of
 * every sponsored op signed but not yet included, signed by the sponsor's vault key, then by the
 * session key, and saved on the record before the lock is let go. Answers the record as saved, or
 * `unsponsored` (no room, no rule, or an account not ready to run without its own gas: a wallet not
 * deployed yet) — then the wallet pays, as without a paymaster.
 * @example const sponsored = await sponsorUserOperation(ctx, chain, bundler, { record, wallet, smart, paymaster })
 */
export async function sponsorUserOperation(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  bundler: Bundler,
  {
    record,
    wallet,
    smart,
    paymaster,
  }: {
    record: UnsignedQueuedTransaction
    wallet: WalletRecord
    smart: SmartWalletFields
    paymaster: TenantPaymaster
  },
): Promise<TransactionRecord | 'unsponsored'> {
  const contracts = accountAbstractionOf(chain)
  const state = await sessionState(chain, contracts, wallet.address, smart)
  if (!state.delegated || !state.deployed) return 'unsponsored'
  const sponsor = verifyingPaymaster({
    address: paymaster.address,
    signer: await ctx.vault.getSigner(paymaster.signer),
    now: () => ctx.now().getTime(),
  })
  const stub: PaymasterFields = await sponsor.getPaymasterStubData({} as never)
  const { unsigned, entryPoint } = await unsignedSessionUserOperation(chain, smart, bundler, {
    intentId: record.id,
    calls: carriedCalls(record),
    paymaster: stub,
  })
  const maxCost = maxGasCostOf(unsigned)
  return withLock(ctx.storage, [sponsorLockKey(record.tenantId, chain.name)], async () => {
    // Another carrier of this intent (the send, the tracker) may have saved its op meanwhile: never sign twice.
    const current = await ctx.storage.get('transactions', record.id)
    if (current?.userOperation || current?.status !== 'queued') return current ?? record
    const rules = (await scopedRules(ctx, record.tenantId, record.walletId)).map(({ rule }) => rule)
    const decision = await sponsorshipOf({
      rules,
      now: ctx.now(),
      maxCost,
      spentSince: (since, over) =>
        sponsoredSpend(ctx, chain, {
          tenantId: record.tenantId,
          entryPoint,
          paymaster: paymaster.address,
          since,
          ...(over === 'wallet' ? { walletId: record.walletId, sender: smart.sessionKey } : {}),
        }),
    })
    if (!decision.sponsored) return 'unsponsored'
    const fields: PaymasterFields = await sponsor.getPaymasterData({
      ...unsigned,
      chainId: chain.chainId,
      entryPointAddress: entryPoint,
    } as never)
    const sponsored = { ...unsigned, ...fields }
    // The sponsor's signature commits the tenant's deposit: recorded, in a commit of its own, before use.
    await recordAudit(ctx, record.tenantId, {
      kind: 'vault.signature',
      subjects: { walletId: record.walletId, transactionId: record.id, keyId: paymaster.signer },
      payload: sponsorshipSigned(sponsored, { chainId: chain.chainId, maxCost, ruleIds: decision.ruleIds }),
    })
    const op = await signSessionUserOperation(ctx, chain, smart, sponsored)
    const hash = getUserOperationHash({
      chainId: chain.chainId,
      entryPointAddress: entryPoint,
      entryPointVersion: '0.8',
      userOperation: op,
    })
    return (await saveUserOperation(ctx, record, toStoredUserOperation(op, { hash, entryPoint }))) ?? record
  })
}

/** One lock per tenant and chain: sponsorship decisions of a tenant are taken one at a time. */
function sponsorLockKey(tenantId: string, chain: string): string {
  return `sponsor:${tenantId}:${chain}`
}

/**
 * What the paymaster has spent or may yet spend (wei): `actualGasCost` of the ops it paid for since
 * `since` (the chain's logs; of `sender` only, for a rule over one wallet), plus the worst case of each
 * op it sponsors that is saved on a record but not in those logs yet.
 */
async function sponsoredSpend(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  query: {
    tenantId: string
    entryPoint: Address
    paymaster: Address
    since: Date
    walletId?: string
    sender?: Address
  },
): Promise<bigint> {
  const { entryPoint, paymaster, since, sender } = query
  const included = await sponsoredUserOperationsSince(chain.client, {
    entryPoint,
    paymaster,
    since,
    sender,
  }).catch((error: unknown) => {
    throw toChainError(error, chain.name, { read: true })
  })
  const seen = new Set(included.map((operation) => operation.userOpHash.toLowerCase()))
  const open = await ctx.storage.query('transactions', {
    where: {
      tenantId: query.tenantId,
      chain: chain.name,
      status: ['queued', 'submitted'],
      ...(query.walletId ? { walletId: query.walletId } : {}),
    },
  })
  let inFlight = 0n
  for (const candidate of open) {
    const stored = candidate.userOperation
    if (!stored || seen.has(stored.hash.toLowerCase())) continue
    const op = fromStoredUserOperation(stored)
    if (op.paymaster?.toLowerCase() === query.paymaster.toLowerCase()) inFlight += maxGasCostOf(op)
  }
  return included.reduce((sum, operation) => sum + operation.actualGasCost, inFlight)
}

/** The audit payload of a sponsorship the paymaster's signer signed: what it commits the deposit to. */
function sponsorshipSigned(
  op: SignedUserOperation & PaymasterFields,
  { chainId, maxCost, ruleIds }: { chainId: number; maxCost: bigint; ruleIds: string[] },
) {
  const [validUntil, validAfter] = decodeAbiParameters(
    [{ type: 'uint48' }, { type: 'uint48' }],
    slice(op.paymasterData, 0, 64) as Hex,
  )
  return {
    signed: 'sponsorship',
    paymaster: op.paymaster,
    sender: op.sender,
    nonce: op.nonce.toString(),
    chainId,
    digest: verifyingPaymasterHash({ userOperation: op, chainId, validUntil, validAfter }),
    maxCost: maxCost.toString(),
    ruleIds,
  }
}

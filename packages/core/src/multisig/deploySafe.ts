import { encodeFunctionData, getAddress, parseEventLogs, zeroAddress } from 'viem'
import type { z } from 'zod'
import { safeAbi, safeProxyFactoryAbi } from '../chain/safeAbi.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { type IdempotencyOptions, withIdempotency } from '../idempotency/withIdempotency.js'
import type { Principal } from '../principals/types.js'
import { toApprovalSummary } from '../transactions/approvalSummary.js'
import { viewOf } from '../transactions/sendAnswer.js'
import type { SubmitResult } from '../transactions/submitIntent.js'
import { submitIntent } from '../transactions/submitIntent.js'
import { waitForFinalStatus } from '../transactions/waitForTransaction.js'
import { actingWallet } from '../wallets/actingWallet.js'
import { requireAccountWallet } from '../wallets/requireAccountWallet.js'
import type { deploySafeAnswerSchema, deploySafeSchema } from './multisigSchemas.js'
import type { MultisigWalletRecord } from './multisigTypes.js'
import { readSafe } from './readSafe.js'

export type DeploySafeReturnType = z.infer<typeof deploySafeAnswerSchema>

/** Chains where Safe deploys the L1 singleton (no extra events); elsewhere SafeL2, as Safe's own tools do. */
const l1ChainIds = new Set([1, 11155111])

/**
 * Deploys a Safe v1.4.1 proxy with `setup(owners, threshold, …, fallbackHandler)` through the
 * proxy factory's `createProxyWithNonce`, paid by a managed wallet (`wallet`, else the caller's only
 * wallet) through the money path (kind 'multisig', amount 0). Resolves once mined, with the proxy
 * address read from the ProxyCreation event, and records the Safe in `multisig_wallets`.
 * @example const { address } = await deploySafe(ctx, principal, { owners: [a, b, c], threshold: 2 })
 */
export async function deploySafe(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof deploySafeSchema>,
  options: IdempotencyOptions = {},
): Promise<DeploySafeReturnType> {
  return withIdempotency(ctx, principal, 'multisig.deploy', input, options, () =>
    deploy(ctx, principal, input),
  )
}

async function deploy(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof deploySafeSchema>,
): Promise<DeploySafeReturnType> {
  const wallet = requireAccountWallet(await actingWallet(ctx, principal, input.wallet), 'own a Safe')
  const chain = ctx.chains.get(input.chain ?? wallet.chain)
  const safe = safeContracts(chain)
  const singleton = l1ChainIds.has(chain.chainId) ? safe.singleton : safe.singletonL2
  const initializer = encodeFunctionData({
    abi: safeAbi,
    functionName: 'setup',
    args: [
      input.owners,
      BigInt(input.threshold),
      zeroAddress,
      '0x',
      safe.fallbackHandler,
      zeroAddress,
      0n,
      zeroAddress,
    ],
  })
  const saltNonce = randomSalt()
  const submitted = await submitIntent(ctx, principal, wallet, {
    kind: 'multisig',
    chain: chain.name,
    to: safe.proxyFactory,
    asset: { address: 'native', symbol: chain.nativeSymbol, decimals: chain.nativeDecimals },
    amount: 0n,
    call: {
      to: safe.proxyFactory,
      value: 0n,
      data: encodeFunctionData({
        abi: safeProxyFactoryAbi,
        functionName: 'createProxyWithNonce',
        args: [singleton, initializer, saltNonce],
      }),
    },
    meta: {
      purpose: 'safe_deploy',
      owners: input.owners,
      threshold: input.threshold,
      saltNonce: saltNonce.toString(),
    },
  })
  if (submitted.status === 'pending_approval') {
    return {
      status: 'pending_approval',
      chain: chain.name,
      transaction: viewOf(ctx, submitted.transaction),
      approval: toApprovalSummary(submitted.approval),
    }
  }
  const mined = await awaitDeployment(ctx, submitted)
  const receipt = await chain.client.getTransactionReceipt({ hash: mined.hash })
  const [creation] = parseEventLogs({
    abi: safeProxyFactoryAbi,
    logs: receipt.logs,
    eventName: 'ProxyCreation',
  }).filter((log) => log.address.toLowerCase() === safe.proxyFactory.toLowerCase())
  if (!creation) {
    throw new BaseError('transaction_failed', 'The deployment was mined without a ProxyCreation event', {
      details: { transactionId: mined.id, hash: mined.hash },
    })
  }
  const address = getAddress(creation.args.proxy)
  const state = await readSafe(chain, address)
  const record: MultisigWalletRecord = {
    id: ctx.newId('msw'),
    tenantId: principal.tenantId,
    chain: chain.name,
    chainId: chain.chainId,
    address,
    owners: state.owners,
    threshold: state.threshold,
    singleton,
    saltNonce: saltNonce.toString(),
    deployedBy: wallet.id,
    deployTransactionId: mined.id,
    deployHash: mined.hash,
    createdBy: principal.id,
    createdAt: ctx.now().toISOString(),
  }
  await ctx.storage.transaction([], (tx) => tx.insert('multisig_wallets', record))
  return {
    status: 'deployed',
    address,
    chain: chain.name,
    owners: state.owners,
    threshold: state.threshold,
    hash: mined.hash,
    transaction: viewOf(ctx, mined),
  }
}

/**
 * The deployment once confirmed, with the hash of the transaction that mined it: the wallet's own, or
 * for a smart wallet the one that included its user operation (which has no block of its own on the record).
 */
async function awaitDeployment(ctx: AgentWalletContext, submitted: SubmitResult) {
  const done = await waitForFinalStatus(ctx, submitted.transaction.id)
  if (done.status === 'confirmed' && done.hash) return { ...done, hash: done.hash }
  throw new BaseError('transaction_failed', 'The Safe deployment transaction did not succeed on chain', {
    details: {
      step: 'Safe deployment',
      transactionId: done.id,
      hash: done.hash,
      status: done.status,
      error: done.error,
    },
  })
}

function safeContracts(chain: ChainHandle) {
  const safe = chain.contracts.safe
  if (safe) return safe
  throw new BaseError('unsupported_protocol', `Safe is not in the address book of chain "${chain.name}"`, {
    details: { protocol: 'safe', chain: chain.name },
  })
}

function randomSalt(): bigint {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return BigInt(`0x${Buffer.from(bytes).toString('hex')}`)
}

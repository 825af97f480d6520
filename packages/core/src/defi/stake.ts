import { type Address, encodeFunctionData, parseEventLogs, zeroAddress } from 'viem'
import type { z } from 'zod'
import type { ApprovalRecord } from '../approvals/types.js'
import { lidoAbi } from '../chain/lidoAbi.js'
import { resolveAsset } from '../chain/resolveAsset.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { type IdempotencyOptions, withIdempotency } from '../idempotency/withIdempotency.js'
import type { IntentAsset } from '../intents/types.js'
import type { Principal } from '../principals/types.js'
import { toApprovalSummary } from '../transactions/approvalSummary.js'
import { awaitConfirmed } from '../transactions/awaitConfirmed.js'
import { viewOf } from '../transactions/sendAnswer.js'
import { submitIntent } from '../transactions/submitIntent.js'
import type { TransactionRecord } from '../transactions/types.js'
import { formatAmount, parseAmount } from '../utils/amounts.js'
import { actingWallet } from '../wallets/actingWallet.js'
import { requireAccountWallet } from '../wallets/requireAccountWallet.js'
import type { stakeAnswerSchema, stakeSchema } from './defiSchemas.js'

/** Staking protocols core knows, and where each lives in a chain's address book. */
export const stakingProtocols = ['lido'] as const
export type StakingProtocol = (typeof stakingProtocols)[number]

export type StakeReturnType = z.infer<typeof stakeAnswerSchema>

/** A stake with the stored records of its transaction and approval (the answer is a view of it). */
type StakeResult = {
  status: 'confirmed' | 'pending_approval'
  protocol: StakingProtocol
  chain: string
  wallet: Address
  amount: string
  amountRaw: string
  /** The liquid-staking token minted to the wallet (from the receipt; absent while paused). */
  received?: { asset: IntentAsset; amount: string; amountRaw: string } | undefined
  transaction: TransactionRecord
  approval?: ApprovalRecord | undefined
}

/**
 * Stakes `amount` of the native coin with `protocol` through the money path (kind 'stake', native
 * asset): for 'lido', `submit(referral)` payable. Resolves once mined, with what the wallet received
 * (the stETH Transfer events to it in the receipt). An unknown protocol is `unsupported_protocol`.
 * @example const { received } = await stake(ctx, principal, { protocol: 'lido', amount: '1' })
 */
export async function stake(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof stakeSchema>,
  options: IdempotencyOptions = {},
): Promise<StakeReturnType> {
  return withIdempotency(ctx, principal, 'defi.stake', input, options, async () => {
    const { transaction, approval, received, status, ...result } = await runStake(ctx, principal, input)
    const shared = { ...result, transaction: viewOf(ctx, transaction) }
    if (status === 'pending_approval' && approval)
      return { ...shared, status, hash: null, approval: toApprovalSummary(approval) }
    if (status === 'confirmed' && received && transaction.hash)
      return { ...shared, status, received, hash: transaction.hash }
    throw new BaseError('internal', 'A stake ended without what its status carries', {
      details: { status, transactionId: transaction.id },
    })
  })
}

async function runStake(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof stakeSchema>,
): Promise<StakeResult> {
  const protocol = input.protocol.toLowerCase()
  if (!isStakingProtocol(protocol)) {
    throw new BaseError('unsupported_protocol', `Staking protocol "${input.protocol}" is not supported`, {
      details: { protocol: input.protocol, supported: stakingProtocols },
    })
  }
  // A smart wallet's stake is one call, carried by its session key's user operation.
  const wallet = requireAccountWallet(await actingWallet(ctx, principal, input.wallet), 'stake')
  const chain = ctx.chains.get(input.chain ?? wallet.chain)
  const lido = lidoOn(chain)
  const asset = await resolveAsset(chain)
  const amount = parseAmount(input.amount, asset.decimals)
  if (amount === 0n) {
    const message = 'amount must be greater than zero'
    throw new BaseError('validation_failed', message, { details: { issues: [{ path: 'amount', message }] } })
  }
  const submitted = await submitIntent(ctx, principal, wallet, {
    kind: 'stake',
    chain: chain.name,
    to: lido,
    asset,
    amount,
    call: {
      to: lido,
      value: amount,
      data: encodeFunctionData({ abi: lidoAbi, functionName: 'submit', args: [zeroAddress] }),
    },
    meta: { protocol },
  })
  const base = {
    protocol,
    chain: chain.name,
    wallet: wallet.address,
    amount: formatAmount(amount, asset.decimals),
    amountRaw: amount.toString(),
  }
  if (submitted.status === 'pending_approval') {
    return {
      ...base,
      status: 'pending_approval',
      transaction: submitted.transaction,
      approval: submitted.approval,
    }
  }
  const mined = await awaitConfirmed(ctx, submitted, 'stake')
  const receipt = await chain.client.getTransactionReceipt({ hash: mined.hash })
  const minted = parseEventLogs({ abi: lidoAbi, logs: receipt.logs, eventName: 'Transfer' })
    .filter(
      (log) =>
        log.address.toLowerCase() === lido.toLowerCase() &&
        log.args.to.toLowerCase() === wallet.address.toLowerCase(),
    )
    .reduce((sum, log) => sum + log.args.value, 0n)
  const stToken = await resolveAsset(chain, lido)
  return {
    ...base,
    status: 'confirmed',
    received: {
      asset: stToken,
      amount: formatAmount(minted, stToken.decimals),
      amountRaw: minted.toString(),
    },
    transaction: mined,
  }
}

function isStakingProtocol(value: string): value is StakingProtocol {
  return (stakingProtocols as readonly string[]).includes(value)
}

function lidoOn(chain: ChainHandle): Address {
  const lido = chain.contracts.staking?.lido
  if (lido) return lido
  throw new BaseError('unsupported_protocol', `Lido is not in the address book of chain "${chain.name}"`, {
    details: { protocol: 'lido', chain: chain.name, supported: [] },
  })
}

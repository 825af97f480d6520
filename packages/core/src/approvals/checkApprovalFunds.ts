import { erc20Abi, formatEther, formatUnits } from 'viem'
import { toChainError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError, isAgentWalletError } from '../errors/baseError.js'
import { NotFoundError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { carrierOf } from '../transactions/carrier.js'
import { tokenSpendOf } from '../transactions/prepareGas.js'
import type { ApprovalFunds } from './approvalSchemas.js'

/**
 * Checks a pending approval's intent against the wallet's balance the way approving will (value and
 * token amount, plus gas estimated with the chain's current fees), without deciding anything.
 * @example const { covered } = await checkApprovalFunds(ctx, approver, { approvalId })
 */
export async function checkApprovalFunds(
  ctx: AgentWalletContext,
  principal: Principal,
  { approvalId }: { approvalId: string },
): Promise<ApprovalFunds> {
  const approval = await ctx.storage.get('approvals', approvalId)
  const transaction =
    approval?.tenantId === principal.tenantId
      ? await ctx.storage.get('transactions', approval.transactionId)
      : undefined
  if (!approval || !transaction) throw new NotFoundError('Approval', { details: { approvalId } })
  if (approval.status !== 'pending')
    throw new BaseError('approval_not_pending', `Approval is already ${approval.status}`, {
      details: { approvalId, status: approval.status },
    })
  const chain = ctx.chains.get(transaction.chain)
  const spend = tokenSpendOf(transaction)
  const [balance, held] = await Promise.all([
    chain.client.getBalance({ address: transaction.from, blockTag: 'pending' }),
    spend &&
      chain.client.readContract({
        address: spend.token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [transaction.from],
        blockTag: 'pending',
      }),
  ]).catch((error: unknown) => {
    throw toChainError(error, chain.name, { read: true })
  })
  let covered = true
  let required: bigint | null = null
  let gasIncluded = false
  try {
    // As its carrier will check it: an x402 payment needs only its token (its payee pays the gas of settlement).
    const { gas } = await carrierOf(ctx, transaction).fund(
      ctx,
      chain,
      { address: transaction.from },
      { asset: transaction.asset, amount: transaction.amount, via: transaction.via, call: transaction.call },
      { allow: false },
    )
    required = BigInt(transaction.call.value) + (gas ? BigInt(gas.limit) * BigInt(gas.maxFeePerGas) : 0n)
    gasIncluded = gas !== undefined
  } catch (error) {
    if (!isAgentWalletError(error, 'insufficient_funds')) throw error
    covered = false
    const details = error.details as { requiredWei?: string } | undefined
    required = details?.requiredWei ? BigInt(details.requiredWei) : null
    gasIncluded = required !== null && required > BigInt(transaction.call.value)
  }
  const { decimals, symbol } = transaction.asset
  return {
    approvalId,
    transactionId: transaction.id,
    covered,
    native: {
      balance: formatEther(balance),
      required: required === null ? null : formatEther(required),
      gasIncluded,
    },
    ...(spend && held !== undefined
      ? {
          token: {
            symbol,
            balance: formatUnits(held, decimals),
            required: formatUnits(spend.amount, decimals),
          },
        }
      : {}),
  }
}

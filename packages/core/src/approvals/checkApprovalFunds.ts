import { erc20Abi, formatEther, formatUnits } from 'viem'
import { z } from 'zod'
import { toChainError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError, isAgentWalletError } from '../errors/baseError.js'
import { NotFoundError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { out } from '../schemas/out.js'
import { prepareFunds, tokenSpendOf } from '../transactions/prepareGas.js'

/** Whether the wallet can pay a paused intent now: its balance against what approving would need. */
export const approvalFundsSchema = z.object({
  approvalId: z.string(),
  transactionId: z.string(),
  /** False: approving now would fail with insufficient_funds, and the intent would fail unsigned. */
  covered: z.boolean(),
  /**
   * ETH: the wallet's balance and what approving needs: the value plus the maximum gas fee
   * (`gasIncluded`), or the value alone when even that is short (gas is not estimated then), or null
   * when a token it lacks stopped the check first.
   */
  native: z.object({ balance: out.decimal, required: out.decimal.nullable(), gasIncluded: z.boolean() }),
  /** The ERC-20 an intent pays out of the wallet: its balance and the amount. */
  token: z.object({ symbol: z.string(), balance: out.decimal, required: out.decimal }).optional(),
})
export type ApprovalFunds = z.infer<typeof approvalFundsSchema>

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
    // An x402 payment needs only its token (its payee pays the gas of settlement): no gas, no ETH.
    const gas = await prepareFunds(chain, transaction.from, transaction.call, transaction)
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

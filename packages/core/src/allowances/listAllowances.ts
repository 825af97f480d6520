import { type Address, erc20Abi, isAddressEqual, maxUint160, maxUint256 } from 'viem'
import type { z } from 'zod'
import { permit2Of } from '../chain/permit2Of.js'
import { isRevert, toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { effectAbis } from '../effects/effectAbis.js'
import type { Principal } from '../principals/types.js'
import { formatAmount } from '../utils/amounts.js'
import { findWallet } from '../wallets/findWallet.js'
import type { Allowance, listAllowancesAnswerSchema, listAllowancesSchema } from './allowanceSchemas.js'
import type { AllowanceGrantRecord } from './types.js'

/**
 * The permissions the service granted from a wallet that still stand on chain: each recorded grant
 * read back (an ERC-20 or Permit2 allowance above zero and unexpired, an operator still approved, a
 * token still approved to its spender). Grants made before grants were recorded are not listed;
 * `revokeAllowance` takes any token and spender.
 * @example const { allowances } = await listAllowances(ctx, principal, { wallet })
 */
export async function listAllowances(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof listAllowancesSchema>,
): Promise<z.infer<typeof listAllowancesAnswerSchema>> {
  const wallet = await findWallet(ctx, principal, input.wallet)
  const chain = ctx.chains.get(input.chain ?? wallet.chain)
  const grants = await ctx.storage.query('allowance_grants', {
    where: { walletId: wallet.id, chain: chain.name },
  })
  const standing = await Promise.all(grants.map((grant) => readBack(ctx, chain, wallet.address, grant)))
  return { allowances: standing.filter((allowance) => allowance !== undefined) }
}

async function readBack(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  owner: Address,
  grant: AllowanceGrantRecord,
): Promise<Allowance | undefined> {
  const { address, symbol, decimals, tokenId } = grant.asset
  const token = address as Address
  const shown = {
    kind: grant.kind,
    asset: { address: token, symbol, decimals, ...(tokenId === undefined ? {} : { tokenId }) },
    spender: grant.spender,
    transactionId: grant.transactionId,
    grantedAt: grant.grantedAt,
  }
  const read = chain.client
  try {
    switch (grant.kind) {
      case 'erc20': {
        const amount = await read.readContract({
          address: token,
          abi: erc20Abi,
          functionName: 'allowance',
          args: [owner, grant.spender],
        })
        if (amount === 0n) return undefined
        return { ...shown, ...amountOf(amount, decimals), unlimited: amount === maxUint256 }
      }
      case 'permit2': {
        const [amount, expiration] = await read.readContract({
          address: permit2Of(chain),
          abi: effectAbis.permit2Allowance,
          functionName: 'allowance',
          args: [owner, token, grant.spender],
        })
        const nowSeconds = Math.floor(ctx.now().getTime() / 1000)
        if (amount === 0n || expiration < nowSeconds) return undefined
        return {
          ...shown,
          ...amountOf(amount, decimals),
          unlimited: amount === maxUint160,
          expiresAt: new Date(expiration * 1000).toISOString(),
        }
      }
      case 'operator': {
        const approved = await read.readContract({
          address: token,
          abi: effectAbis.nftApprovals,
          functionName: 'isApprovedForAll',
          args: [owner, grant.spender],
        })
        return approved ? { ...shown, amount: null, amountRaw: null, unlimited: true } : undefined
      }
      case 'erc721_token': {
        const approved = await read.readContract({
          address: token,
          abi: effectAbis.nftApprovals,
          functionName: 'getApproved',
          args: [BigInt(tokenId ?? '0')],
        })
        if (!isAddressEqual(approved, grant.spender)) return undefined
        return { ...shown, amount: null, amountRaw: null, unlimited: false }
      }
    }
  } catch (error) {
    // A token burnt or a contract that no longer answers: nothing of it stands to be revoked.
    if (isRevert(error)) return undefined
    throw toChainError(error, chain.name, { read: true })
  }
}

function amountOf(amount: bigint, decimals: number) {
  return { amount: formatAmount(amount, decimals), amountRaw: amount.toString() }
}

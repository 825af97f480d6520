import { type Address, encodeFunctionData, erc20Abi, type Hex, zeroAddress } from 'viem'
import { permit2Of } from '../chain/permit2Of.js'
import { resolveAsset } from '../chain/resolveAsset.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { effectAbis } from '../effects/effectAbis.js'
import { ValidationError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { toSendAnswer } from '../transactions/sendAnswer.js'
import { type SubmitOptions, submitIntent } from '../transactions/submitIntent.js'
import type { SendAnswer } from '../transactions/transactionSchemas.js'
import { findWallet } from '../wallets/findWallet.js'
import type { WalletRecord } from '../wallets/types.js'
import type { RevokeAllowanceInput } from './allowanceSchemas.js'
import type { AllowanceKind } from './types.js'

/**
 * Takes a permission back from `spender`: an ERC-20 `approve(spender, 0)`, a Permit2
 * `approve(token, spender, 0, 0)`, `setApprovalForAll(operator, false)`, or an ERC-721
 * `approve(0x0, tokenId)` — sent from the wallet through the money path, so the policy judges it
 * (it moves nothing and grants nothing) and it may pause for approval like any send.
 * @example await revokeAllowance(ctx, principal, { wallet, token: usdc, spender: router })
 */
export async function revokeAllowance(
  ctx: AgentWalletContext,
  principal: Principal,
  input: RevokeAllowanceInput,
  options: Pick<SubmitOptions, 'idempotencyKey'> = {},
): Promise<SendAnswer> {
  const wallet = await findWallet(ctx, principal, input.wallet)
  const chain = ctx.chains.get(input.chain ?? wallet.chain)
  const kind = input.kind ?? (await recordedKind(ctx, wallet, chain, input))
  const call = revokeCall(chain, kind, input)
  const native = await resolveAsset(chain)
  const result = await submitIntent(
    ctx,
    principal,
    wallet,
    {
      kind: 'contract_call',
      chain: chain.name,
      to: call.to,
      asset: native,
      amount: 0n,
      call: { to: call.to, value: 0n, data: call.data },
      meta: { revokes: { kind, token: input.token, spender: input.spender, tokenId: input.tokenId } },
    },
    { idempotencyKey: options.idempotencyKey, request: { operation: 'revokeAllowance', ...input, kind } },
  )
  return toSendAnswer(ctx, result)
}

/** The kind the service recorded for this token and spender (one only), else an ERC-20 allowance. */
async function recordedKind(
  ctx: AgentWalletContext,
  wallet: WalletRecord,
  chain: ChainHandle,
  input: RevokeAllowanceInput,
): Promise<AllowanceKind> {
  const grants = await ctx.storage.query('allowance_grants', {
    where: { walletId: wallet.id, chain: chain.name },
  })
  const kinds = new Set(
    grants
      .filter(
        (grant) =>
          grant.asset.address.toLowerCase() === input.token.toLowerCase() &&
          grant.spender.toLowerCase() === input.spender.toLowerCase() &&
          (input.tokenId === undefined || grant.asset.tokenId === input.tokenId),
      )
      .map((grant) => grant.kind),
  )
  if (kinds.size <= 1) return [...kinds][0] ?? (input.tokenId === undefined ? 'erc20' : 'erc721_token')
  const message = `Several permissions stand for this token and spender (${[...kinds].join(', ')}): name the one to revoke in "kind"`
  throw new ValidationError(message, { details: { issues: [{ path: 'kind', message }] } })
}

function revokeCall(
  chain: ChainHandle,
  kind: AllowanceKind,
  input: RevokeAllowanceInput,
): { to: Address; data: Hex } {
  const { token, spender } = input
  switch (kind) {
    case 'erc20':
      return {
        to: token,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, 0n] }),
      }
    case 'permit2':
      return {
        to: permit2Of(chain),
        data: encodeFunctionData({
          abi: effectAbis.permit2Allowance,
          functionName: 'approve',
          args: [token, spender, 0n, 0],
        }),
      }
    case 'operator':
      return {
        to: token,
        data: encodeFunctionData({
          abi: effectAbis.nftApprovals,
          functionName: 'setApprovalForAll',
          args: [spender, false],
        }),
      }
    case 'erc721_token': {
      if (input.tokenId === undefined) {
        const message = 'Revoking one ERC-721 token’s approval needs its "tokenId"'
        throw new ValidationError(message, { details: { issues: [{ path: 'tokenId', message }] } })
      }
      return {
        to: token,
        data: encodeFunctionData({
          abi: effectAbis.nftApprovals,
          functionName: 'approve',
          args: [zeroAddress, BigInt(input.tokenId)],
        }),
      }
    }
  }
}

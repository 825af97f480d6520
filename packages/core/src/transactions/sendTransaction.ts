import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { parseInput } from '../schemas/parseInput.js'
import { findWallet } from '../wallets/findWallet.js'
import { buildDraft } from './buildDraft.js'
import { type SendParameters, sendSchema } from './sendSchema.js'
import { type SubmitOptions, type SubmitResult, submitIntent } from './submitIntent.js'

export type SendTransactionParameters = SendParameters
export type SendTransactionReturnType = SubmitResult

/**
 * Sends native value, an ERC-20 transfer or a contract call from a managed wallet, through the
 * policy engine. Resolves with the submitted (or paused) transaction; throws `policy_blocked`.
 * @example const { transaction } = await sendTransaction(ctx, principal, wallet.address, { to, value: '0.01' })
 */
export async function sendTransaction(
  ctx: AgentWalletContext,
  principal: Principal,
  address: string,
  parameters: SendTransactionParameters,
  options: Pick<SubmitOptions, 'idempotencyKey'> = {},
): Promise<SendTransactionReturnType> {
  const send = parseInput(sendSchema, parameters)
  const wallet = await findWallet(ctx, principal, address)
  const chain = ctx.chains.get(send.chain ?? wallet.chain)
  const draft = await buildDraft(chain, send)
  return submitIntent(ctx, principal, wallet, draft, {
    idempotencyKey: options.idempotencyKey,
    request: { address: wallet.address, ...parameters },
  })
}

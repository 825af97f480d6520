import type { AgentWalletContext } from '../context.js'
import { buildDraft } from '../intents/buildDraft.js'
import type { Principal } from '../principals/types.js'
import { findWallet } from '../wallets/findWallet.js'
import { toSendAnswer } from './sendAnswer.js'
import type { SendInput } from './sendSchema.js'
import { type SubmitOptions, submitIntent } from './submitIntent.js'
import type { SendAnswer } from './transactionSchemas.js'

/**
 * Sends native value, an ERC-20 transfer or a contract call from a managed wallet, through the
 * policy engine. Answers the submitted (or paused) transaction; throws `policy_blocked`.
 * @example const { transaction } = await sendTransaction(ctx, principal, { wallet, to, value: '0.01' })
 */
export async function sendTransaction(
  ctx: AgentWalletContext,
  principal: Principal,
  input: SendInput,
  options: Pick<SubmitOptions, 'idempotencyKey'> = {},
): Promise<SendAnswer> {
  const { wallet: address, ...send } = input
  const wallet = await findWallet(ctx, principal, address)
  const chain = ctx.chains.get(send.chain ?? wallet.chain)
  const draft = await buildDraft(chain, send)
  const result = await submitIntent(ctx, principal, wallet, draft, {
    idempotencyKey: options.idempotencyKey,
    request: { address: wallet.address, ...send },
  })
  return toSendAnswer(ctx, result)
}

import type { ChainProvider } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { buildDraft } from '../intents/buildDraft.js'
import type { IntentDraft } from '../intents/types.js'
import type { Principal } from '../principals/types.js'
import { solanaChainOf } from '../solana/solanaChainOf.js'
import { solanaDraft } from '../solana/solanaDraft.js'
import type { ChainFamily } from '../vault/types.js'
import { findWallet } from '../wallets/findWallet.js'
import { walletChainOf } from '../wallets/walletChainOf.js'
import { toSendAnswer } from './sendAnswer.js'
import type { SendInput } from './sendSchema.js'
import { type SubmitOptions, submitIntent } from './submitIntent.js'
import type { SendAnswer } from './transactionSchemas.js'

/** How a send becomes an intent draft on a chain of each family (the chain's family decides, not the caller). */
const draftOf: {
  readonly [Family in ChainFamily]: (
    chains: ChainProvider,
    name: string,
    send: Omit<SendInput, 'wallet'>,
  ) => Promise<IntentDraft>
} = {
  evm: (chains, name, send) => buildDraft(chains.get(name), send),
  solana: async (chains, name, send) => solanaDraft(solanaChainOf(chains, name), send),
}

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
  const { name, family } = walletChainOf(ctx.chains, wallet, send.chain)
  const draft = await draftOf[family](ctx.chains, name, send)
  const result = await submitIntent(ctx, principal, wallet, draft, {
    idempotencyKey: options.idempotencyKey,
    request: { address: wallet.address, ...send },
  })
  return toSendAnswer(ctx, result)
}

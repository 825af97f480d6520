import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { type BaseError, isAgentWalletError } from '../errors/baseError.js'
import type { PolicyIntent } from '../intents/types.js'
import { evaluateIntent, type IntentDecision } from '../policy/evaluateIntent.js'
import type { WalletRecord } from '../wallets/types.js'
import { type Allocated, allocateNonce } from './allocateNonce.js'
import { inFlightOf } from './broadcastLane.js'
import { type Estimate, prepareFunds } from './prepareGas.js'
import { carriedByOf, type GasSettings, isSettledOffchain, type TransactionRecord } from './types.js'

/**
 * The policy's decision and, unless it denies, the gas the intent is signed with (undefined for one
 * its payee settles, an x402 payment); `short` when the wallet cannot pay (`insufficient_funds`).
 */
export type Judgement =
  | {
      decision: IntentDecision
      gas: GasSettings | undefined
      /** An allowed intent's nonce, read beside its funds: for `commitIntent` under the same lock. */
      allocated?: Promise<Allocated> | undefined
      short?: undefined
    }
  | { decision: IntentDecision; short: BaseError; gas?: undefined; allocated?: undefined }

/**
 * The checks of the money path, for an intent about to be accepted or approved; the caller holds the
 * wallet lock. The policy first, with the wallet's window totals (valued in USD when a rule asks);
 * then, unless it denies, gas and funds beyond what the wallet's txs in flight will spend (the
 * estimate may have started before the lock). A wallet short of funds is answered, not thrown, so
 * the caller decides what it records.
 * @example const { decision, gas, short } = await judgeIntent(ctx, chain, wallet, intent, call, { estimate })
 */
export async function judgeIntent(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  wallet: WalletRecord,
  intent: PolicyIntent,
  call: TransactionRecord['call'],
  options: { estimate?: Estimate | undefined; excludeTransactionId?: string | undefined } = {},
): Promise<Judgement> {
  const decision = await evaluateIntent(ctx, wallet, intent, {
    excludeTransactionId: options.excludeTransactionId,
  })
  if (decision.decision === 'deny') return { decision, gas: undefined }
  // Both only read, under the caller's lock: the nonce need not wait for the balances.
  // A smart wallet's intent is carried by a user operation (`isCarried`): no nonce of the wallet's, no gas of its own.
  const carried = { ...intent, ...carriedByOf(wallet, intent.kind) }
  const allocated =
    decision.decision === 'allow' && !isSettledOffchain(carried)
      ? allocateNonce(ctx, chain, wallet.address)
      : undefined
  allocated?.catch(() => undefined) // awaited by `commitIntent`, or dropped with the funds' error
  try {
    const gas = await prepareFunds(chain, wallet.address, call, carried, {
      estimate: options.estimate,
      inFlight: inFlightOf(ctx, chain.chainId, wallet.address),
    })
    return { decision, gas, allocated }
  } catch (error) {
    if (isAgentWalletError(error, 'insufficient_funds')) return { decision, short: error }
    throw error
  }
}

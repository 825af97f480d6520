import type { ChainInfo } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { type BaseError, isAgentWalletError } from '../errors/baseError.js'
import type { PolicyIntent } from '../intents/types.js'
import { evaluateIntent, type IntentDecision } from '../policy/evaluateIntent.js'
import type { StorageReader } from '../storage/types.js'
import type { WalletRecord } from '../wallets/types.js'
import type { Allocated } from './allocateNonce.js'
import type { Ahead, AnyCarrier } from './carrier.js'
import type { GasSettings, TransactionRecord } from './types.js'

/**
 * The policy's decision and, unless it denies, the gas the intent is signed with (undefined where its
 * carrier pays none: an x402 payment's payee, a smart wallet's user operation); `short` when the
 * wallet cannot pay (`insufficient_funds`).
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
 * then, unless it denies, the intent's carrier checks the wallet can pay (`Carrier.fund`: gas and
 * funds beyond what its txs in flight will spend, the estimate started `ahead`). A wallet short of
 * funds is answered, not thrown, so the caller decides what it records.
 * @example const { decision, gas, short } = await judgeIntent(ctx, chain, carrier, wallet, intent, call, { ahead })
 */
export async function judgeIntent(
  ctx: AgentWalletContext,
  chain: ChainInfo,
  carrier: AnyCarrier,
  wallet: WalletRecord,
  intent: PolicyIntent,
  call: TransactionRecord['call'],
  options: {
    ahead?: Ahead | undefined
    excludeTransactionId?: string | undefined
    /** Reads that need not wait for the disk (`Storage.unsynced`'s), for a caller whose answer waits for it. */
    reader?: StorageReader | undefined
  } = {},
): Promise<Judgement> {
  const decision = await evaluateIntent(ctx, wallet, intent, {
    excludeTransactionId: options.excludeTransactionId,
    reader: options.reader,
  })
  if (decision.decision === 'deny') return { decision, gas: undefined }
  try {
    const { gas, allocated } = await carrier.fund(
      ctx,
      chain,
      wallet,
      { asset: intent.asset, amount: intent.amount, via: intent.via, call },
      { allow: decision.decision === 'allow', ahead: options.ahead, reader: options.reader },
    )
    return { decision, gas, allocated }
  } catch (error) {
    if (isAgentWalletError(error, 'insufficient_funds')) return { decision, short: error }
    throw error
  }
}

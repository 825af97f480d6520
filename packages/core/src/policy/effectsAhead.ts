import type { Address } from 'viem'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import { fromStoredEffects } from '../effects/fromStoredEffects.js'
import { isSafeExecution } from '../effects/isSafeExecution.js'
import { type PredictedCall, predictEffects } from '../effects/predictEffects.js'
import { simulateEffects } from '../effects/simulateEffects.js'
import type { Effects } from '../effects/types.js'
import type { IntentDraft } from '../intents/types.js'
import { accountAbstractionOf } from '../smartAccounts/accountAbstractionOf.js'
import { walletCalldata } from '../smartAccounts/walletCalls.js'
import type { TransactionRecord } from '../transactions/types.js'

type DraftedCall = { to: Address; value: bigint | string; data?: IntentDraft['call']['data'] }

type Drafted = Pick<IntentDraft, 'kind' | 'to' | 'asset' | 'amount' | 'via' | 'effects'> & {
  call: DraftedCall
  calls?: readonly DraftedCall[] | undefined
}

/**
 * What a draft will do to the paying account (the wallet, or the Safe it executes for): the
 * draft's own effects when its caller knew them, an x402 payment's authorization of `amount` to
 * its payee, else predicted on the node (`predictEffects`). It may start before the wallet lock,
 * like the gas estimate: a node that does not answer rejects it with `chain_unavailable` when it is
 * awaited (an outage fails the send and saves nothing; it is neither "no effects" nor a policy block).
 * A batch (`calls`) is judged as one: its calls simulated together (`batchEffects`).
 * @example const effects = effectsAhead(chain, wallet.address, draft) // awaited under the lock
 */
export function effectsAhead(chain: ChainHandle, from: Address, draft: Drafted): Promise<Effects> {
  if (draft.effects) return Promise.resolve(draft.effects)
  // An EIP-3009 authorization its payee settles: not a call of the wallet, and exactly this transfer.
  if (draft.kind === 'x402_payment') {
    return Promise.resolve({
      status: 'known',
      source: 'decoded',
      effects: [
        {
          kind: 'out',
          asset: { ...draft.asset, standard: draft.asset.address === 'native' ? 'native' : 'erc20' },
          amount: draft.amount,
          counterparty: draft.to,
        },
      ],
    })
  }
  if (draft.calls) return settle(batchEffects(chain, from, draft.calls.map(toPredicted)))
  const call = toPredicted(draft.call)
  const predict = (holder: Address | undefined) =>
    predictEffects(chain, { from, holder }, call).catch((error: unknown) => {
      throw toChainError(error, chain.name, { read: true })
    })
  // A raw execTransaction (not sent through the multisig actions, which set `via`) spends the Safe's
  // assets as well as the wallet's: judged by both, so a Safe cannot launder a payment (docs/policy.md).
  const predicted =
    draft.via === undefined && isSafeExecution(call.data)
      ? Promise.all([predict(undefined), predict(call.to)]).then(([own, safe]) => bothOf(own, safe))
      : predict(draft.via)
  predicted.catch(() => undefined) // awaited under the lock, or dropped with an earlier error
  return predicted
}

/**
 * What a batch does to a smart wallet, as one: the wallet's own `execute` of the calls in batch mode
 * (`walletCalldata`), simulated as the EntryPoint calls it (the DeleGators take `execute` only from
 * it), so each call runs on the state the previous one left — an approve's allowance is there for the
 * swap that spends it, and every grant, outflow and inflow of the whole batch is counted for the
 * wallet. A wallet with no code yet cannot run it: `unknown` (never "moves nothing").
 */
async function batchEffects(chain: ChainHandle, wallet: Address, calls: PredictedCall[]): Promise<Effects> {
  const { entryPoint } = accountAbstractionOf(chain)
  const code = await chain.client.getCode({ address: wallet }).catch((error: unknown) => {
    throw toChainError(error, chain.name, { read: true })
  })
  if (!code || code === '0x') {
    return { status: 'unknown', reason: 'a batch is simulated through the wallet, which is not deployed yet' }
  }
  const execute = { to: wallet, value: 0n, data: walletCalldata(calls) }
  return simulateEffects(chain, { from: entryPoint, holder: wallet }, execute)
}

function toPredicted({ to, value, data }: DraftedCall): PredictedCall {
  return { to, value: BigInt(value), data }
}

/** A prediction awaited under the lock, or dropped with an earlier error: never an unhandled rejection. */
function settle(predicted: Promise<Effects>): Promise<Effects> {
  predicted.catch(() => undefined)
  return predicted
}

/** The effects on two holders together: known when both are, else the first that is not. */
function bothOf(first: Effects, second: Effects): Effects {
  if (first.status !== 'known') return first
  if (second.status !== 'known') return second
  const source = first.source === 'simulated' || second.source === 'simulated' ? 'simulated' : first.source
  return { status: 'known', source, effects: [...first.effects, ...second.effects] }
}

/**
 * The effects a stored intent is judged by when it is executed (an approval): those stored when it
 * was made, or for one made before effects were stored, predicted now.
 * @example const effects = await effectsOfRecord(chain, transaction)
 */
export function effectsOfRecord(chain: ChainHandle, record: TransactionRecord): Promise<Effects> {
  if (record.effects) return Promise.resolve(fromStoredEffects(record.effects))
  return effectsAhead(chain, record.from, { ...record, amount: BigInt(record.amount), effects: undefined })
}

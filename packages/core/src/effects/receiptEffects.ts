import { type Address, isAddressEqual } from 'viem'
import { permit2Of } from '../chain/permit2Of.js'
import type { ChainHandle } from '../chain/types.js'
import { effect } from './effectFactories.js'
import { type EffectLog, effectsOfLogs, type TokenFacts } from './effectsOfLogs.js'
import { mergeEffects } from './mergeEffects.js'
import type { Effect, Effects } from './types.js'

/**
 * What a mined transaction did to its `holders` (the sender; a Safe it executes for), read from its
 * receipt: the moves and approvals its logs show for each, and the native value the sender's top call
 * sent. Native value moved inside the call (a contract
 * paying the wallet back) is in no log, so it is not here. Token symbols and decimals come from the
 * predicted effects and the address book, where they name the token.
 * @example const actual = receiptEffects(chain, { holders: [from], from, call, predicted }, receipt.logs)
 */
export function receiptEffects(
  chain: Pick<ChainHandle, 'contracts' | 'nativeSymbol' | 'nativeDecimals'>,
  sent: {
    holders: readonly Address[]
    from: Address
    call: { to: Address; value: bigint }
    predicted?: Effects | undefined
  },
  logs: readonly EffectLog[],
): Effects {
  const tokens = tokenFactsOf(chain, sent.predicted)
  // Each holder's effects, side by side (as predicted): a Safe's outflows are not netted with its sender's.
  const moved = sent.holders.map((holder) =>
    effectsOfLogs(logs, { holder, permit2: permit2Of(chain), tokens }),
  )
  const native: Effect[] =
    sent.call.value > 0n && sent.holders.some((holder) => isAddressEqual(holder, sent.from))
      ? [
          effect(
            'out',
            {
              standard: 'native',
              address: 'native',
              symbol: chain.nativeSymbol,
              decimals: chain.nativeDecimals,
            },
            sent.call.value,
            sent.call.to,
          ),
        ]
      : []
  const [own = [], ...others] = moved
  return {
    status: 'known',
    source: 'receipt',
    effects: [...mergeEffects([...native, ...own]), ...others.flat()],
  }
}

function tokenFactsOf(chain: Pick<ChainHandle, 'contracts'>, predicted: Effects | undefined): TokenFacts {
  const facts = new Map<
    string,
    { symbol: string; decimals: number; standard?: Effect['asset']['standard'] }
  >()
  for (const token of chain.contracts.tokens ?? [])
    facts.set(token.address.toLowerCase(), {
      symbol: token.symbol,
      decimals: token.decimals,
      standard: 'erc20',
    })
  if (predicted?.status === 'known') {
    for (const { asset } of predicted.effects) {
      if (asset.address === 'native') continue
      const standard = asset.standard === 'permit2' ? 'erc20' : asset.standard
      facts.set(asset.address.toLowerCase(), { symbol: asset.symbol, decimals: asset.decimals, standard })
    }
  }
  return facts
}

import { orderEffects } from '@agentwallet/client'
import { formatUnits } from '../format.js'
import type { Effect, Effects } from '../types.js'
import { Address } from './common.js'

const verbs: Record<Effect['kind'], string> = {
  out: 'Sends',
  in: 'Receives',
  grant: 'Allows',
  revoke: 'Revokes',
}

/**
 * What a paused transaction will do, as the approver must see it (the largest outflow first, as the
 * headline reads): each asset out and in with its
 * counterparty and USD value, each allowance or operator grant (unlimited ones flagged), or that
 * nobody could tell (unknown, or a revert in simulation).
 */
export function EffectsList({ effects }: { effects: Effects }) {
  if (effects.status !== 'known') {
    return (
      <p class="warning" data-testid="effects-unknown">
        {effects.status === 'reverted'
          ? `It would revert as sent: ${effects.reason}`
          : `What it does is unknown: ${effects.reason}`}
      </p>
    )
  }
  if (effects.effects.length === 0)
    return <p data-testid="effects-none">It moves no asset and grants nothing.</p>
  return (
    <ul class="effects" data-testid="effects">
      {orderEffects(effects.effects).map((effect, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: effects have no id and never reorder
        <li key={index} data-effect-kind={effect.kind} class={effect.unlimited ? 'unlimited' : undefined}>
          {verbs[effect.kind]} <strong>{amountOf(effect)}</strong>
          {effect.usd && <span class="muted"> ≈ ${effect.usd.value}</span>}{' '}
          {effect.kind === 'out' ? 'to' : effect.kind === 'in' ? 'from' : 'to be spent by'}{' '}
          <Address value={effect.counterparty} />
          {effect.unlimited && (
            <strong class="flag" data-testid="unlimited-grant">
              {' '}
              UNLIMITED
            </strong>
          )}
        </li>
      ))}
    </ul>
  )
}

function amountOf({ asset, amount, unlimited, kind }: Effect): string {
  const token = asset.tokenId === undefined ? asset.symbol : `${asset.symbol} #${asset.tokenId}`
  if (unlimited) return kind === 'grant' && asset.tokenId === undefined ? `any amount of ${token}` : token
  if (asset.standard === 'erc721') return token
  return `${formatUnits(amount, asset.decimals)} ${token}`
}

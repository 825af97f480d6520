/** An effect as answers carry it (`storedEffectsSchema`): what a headline reads of it. */
export type HeadlineEffect = {
  kind: 'out' | 'in' | 'grant' | 'revoke'
  asset: { symbol: string; decimals: number; standard: string; tokenId?: string | undefined }
  amount: string
  unlimited?: boolean | undefined
  counterparty: string
  usd?: { value: string } | undefined
}

/** Effects as answers carry them: known (each effect), or why not. */
export type HeadlineEffects =
  | { status: 'known'; effects: readonly HeadlineEffect[] }
  | { status: 'reverted' | 'unknown'; reason: string }

/** How addresses are written: the full address by default; a page may shorten or name them. */
export type HeadlineOptions = { name?: ((address: string) => string) | undefined }

/**
 * What a transaction does, in one line a human reads first: each effect (docs/policy.md, Effects),
 * the largest outflow first, joined by "; " — "Allow 0xBEbe… to spend 500 USDC (≈ $500)". Unknown or
 * reverted effects say so. Built from the effects alone, in core (approval answers, `policy.hitl`,
 * webhooks, agent tools) and in the browser (the dashboard) alike.
 * @example effectsHeadline(approval.effects) // 'Send 0.6 ETH to 0x7099…'
 */
export function effectsHeadline(effects: HeadlineEffects, options: HeadlineOptions = {}): string {
  if (effects.status !== 'known')
    return effects.status === 'reverted'
      ? `Would revert as sent: ${effects.reason}`
      : `What it does could not be predicted: ${effects.reason}`
  if (effects.effects.length === 0) return 'Moves no asset and grants nothing'
  return orderEffects(effects.effects)
    .map((effect) => effectLine(effect, options))
    .join('; ')
}

/**
 * The effects a human should read first first: outflows (sends and grants) from the largest — an
 * unlimited grant, then by USD value where both are valued, else by amount in whole units — then
 * what comes in and what is revoked, in their order.
 * @example orderEffects(effects.effects)[0] // the largest outflow
 */
export function orderEffects<T extends HeadlineEffect>(effects: readonly T[]): T[] {
  const outflows = effects.filter(isOutflow).sort(byLargest)
  return [...outflows, ...effects.filter((effect) => !isOutflow(effect))]
}

/** One effect as a sentence: "Send 5 USDC (≈ $5) to 0x…", "Allow 0x… to spend any amount of USDC (unlimited)". */
export function effectLine(effect: HeadlineEffect, options: HeadlineOptions = {}): string {
  const who = options.name ? options.name(effect.counterparty) : effect.counterparty
  const { symbol, tokenId, standard } = effect.asset
  const usd = effect.usd ? ` (≈ ${dollars(effect.usd.value)})` : ''
  const what =
    tokenId !== undefined
      ? `${symbol} #${tokenId}`
      : `${units(effect.amount, effect.asset.decimals)} ${symbol}`
  const via = standard === 'permit2' ? ' through Permit2' : ''
  switch (effect.kind) {
    case 'out':
      return `Send ${what}${usd} to ${who}`
    case 'in':
      return `Receive ${what}${usd} from ${who}`
    case 'revoke':
      return `Revoke ${who}’s allowance of ${tokenId !== undefined ? what : symbol}${via}`
    case 'grant':
      if (tokenId !== undefined) return `Allow ${who} to take ${what}`
      if (effect.unlimited && (standard === 'erc721' || standard === 'erc1155'))
        return `Allow ${who} to move every ${symbol} token (unlimited)`
      if (effect.unlimited) return `Allow ${who} to spend any amount of ${symbol}${via} (unlimited)`
      return `Allow ${who} to spend ${what}${usd}${via}`
  }
}

const isOutflow = (effect: HeadlineEffect) =>
  effect.kind === 'out' || (effect.kind === 'grant' && (effect.unlimited === true || effect.amount !== '0'))

function byLargest(a: HeadlineEffect, b: HeadlineEffect): number {
  if (a.unlimited || b.unlimited) return (b.unlimited ? 1 : 0) - (a.unlimited ? 1 : 0)
  const [x, y] =
    a.usd && b.usd
      ? [scaled(a.usd.value, 0), scaled(b.usd.value, 0)]
      : [scaled(a.amount, a.asset.decimals), scaled(b.amount, b.asset.decimals)]
  return x === y ? 0 : x < y ? 1 : -1
}

/** A decimal string (or base units of `decimals`) as a bigint of 10^-36 units, to compare exactly. */
function scaled(value: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = value.split('.')
  const digits = 36 - decimals
  return BigInt(whole + fraction.slice(0, digits).padEnd(digits, '0'))
}

/** Base units as whole units, exactly: "500000000" of 6 decimals → "500". */
function units(amount: string, decimals: number): string {
  const digits = amount.padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : whole
}

/** "$500", "$1,234.5", "$0.25", "< $0.01": dollars for a reader, cut to cents (the exact value is in `usd`). */
function dollars(value: string): string {
  const [whole = '0', fraction = ''] = value.split('.')
  const cents = fraction.slice(0, 2).replace(/0+$/, '')
  if (whole === '0' && !cents && /[1-9]/.test(fraction)) return '< $0.01'
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `$${grouped}${cents ? `.${cents.padEnd(2, '0')}` : ''}`
}

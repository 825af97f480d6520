import type { Address } from 'viem'
import type { TokenInfo } from '../chain/types.js'
import type { RulesEngineRule } from '../policy/ruleSchemas.js'
import { parseDuration } from '../schemas/parseDuration.js'
import { parseAmount } from '../utils/amounts.js'
import type { PeriodicAllowance, SessionPermissions } from './sessionPermissions.js'

/**
 * A rule the chain does not enforce (or not fully) for the session key, and why; the off-chain engine
 * still does.
 */
export type OffChainRule = { ruleId: string | undefined; type: string; reason: string }

export type CompiledPermissions = { permissions: SessionPermissions; offChainOnly: readonly OffChainRule[] }

const partialWithoutTargets =
  'compiled, but without a targets list an approve of the token to anyone escapes it: it holds on chain with allow_recipients and allow_contracts'

const offChainReasons: Partial<Record<RulesEngineRule['type'], string>> = {
  deny_recipients: 'the enforcers have no deny list',
  require_approval: 'a human approval happens before anything is signed, off chain',
  rate_limit: 'no enforcer counts calls per sliding window',
  time_window: 'no enforcer knows days and hours of a time zone',
  allow_chains: 'a delegation is bound to one chain by its signature already',
  require_agent_identity: 'judged from the ERC-8004 registries before a payment is signed',
  unknown_effects: 'judged from a simulation before anything is signed',
  screen_counterparties: 'judged from the screening sources before anything is signed',
}

/**
 * Compiles a wallet's rules into the session key's on-chain permissions, where the enforcers can
 * express them; every other rule is listed in `offChainOnly`. The permissions are a ceiling that never
 * forbids what the rules allow (else a judged send would revert), as tight as the enforcers allow: the
 * off-chain engine still judges every intent first. Amounts round down to base units, as the engine's.
 * - `max_per_tx` native → `native.perCall`; for an ERC-20 with no `spend_limit`, an allowance of that
 *   amount per second (no single call moves more); beside a `spend_limit` it stays off chain.
 * - `spend_limit` native or ERC-20 → a periodic allowance over fixed periods of the window (the engine's
 *   window slides, so across a period boundary the chain admits up to twice the limit). One allowance
 *   per asset holds on chain: the smallest; the others stay off chain. An ERC-20 limit is airtight only
 *   with targets (below): without, it is compiled and also listed in `offChainOnly`.
 * - `allow_recipients` and `allow_contracts` together → `targets`: recipients, contracts, the chain's
 *   tokens and venues (token sends and core-built swaps are judged by these rules without being listed).
 *   One of them alone leaves the other kind of call open, so neither is compiled; nor are selectors
 *   (AllowedMethods binds every call, plain ETH sends and token transfers included).
 * - assets in `usd` need price feeds, which enforcers cannot read.
 * @example permissionsFromRules(rules, { expiresAt, tokens: addressBook.tokens ?? [] })
 */
export function permissionsFromRules(
  rules: readonly RulesEngineRule[],
  {
    expiresAt,
    tokens,
    venues = [],
    nativeDecimals = 18,
  }: {
    expiresAt: number
    tokens: readonly TokenInfo[]
    venues?: readonly Address[] | undefined
    nativeDecimals?: number | undefined
  },
): CompiledPermissions {
  const offChainOnly: OffChainRule[] = []
  const skip = (rule: RulesEngineRule, reason: string) =>
    offChainOnly.push({ ruleId: rule.id, type: rule.type, reason })
  const perCall = new Map<string, { rule: RulesEngineRule; amount: bigint }>()
  const allowances = new Map<string, { rule: RulesEngineRule; allowance: PeriodicAllowance }>()
  const active = rules.filter((rule) => rule.enabled !== false)

  for (const rule of active) {
    if (rule.type !== 'max_per_tx' && rule.type !== 'spend_limit') {
      const reason = offChainReasons[rule.type]
      if (reason) skip(rule, reason)
      continue
    }
    const asset = assetOf(rule.asset, tokens, nativeDecimals)
    if (typeof asset === 'string') {
      skip(rule, asset)
      continue
    }
    const amount = baseUnits(rule.max, asset.decimals)
    if (rule.type === 'max_per_tx') {
      keepSmallest(perCall, asset.key, { rule, amount }, (kept) => kept.amount, skip)
    } else {
      const allowance = { amount, period: parseDuration(rule.window) / 1000 }
      keepSmallest(allowances, asset.key, { rule, allowance }, (kept) => kept.allowance.amount, skip)
    }
  }

  const targets = targetsOf(active, tokens, venues, skip)
  const tokenAllowances: { token: Address; rule: RulesEngineRule; allowance: PeriodicAllowance }[] = []
  for (const [key, { rule, allowance }] of allowances) {
    if (key !== 'native') tokenAllowances.push({ token: key as Address, rule, allowance })
  }
  for (const [key, { rule, amount }] of perCall) {
    if (key === 'native') continue
    if (allowances.has(key))
      skip(rule, 'an ERC-20 has no per-call cap on chain beside its periodic allowance')
    else tokenAllowances.push({ token: key as Address, rule, allowance: { amount, period: 1 } })
  }
  // Compiled, but not airtight: with no targets the session may call the token itself, and an approve
  // lowers no balance — the spender then pulls outside any delegation.
  if (!targets) for (const { rule } of tokenAllowances) skip(rule, partialWithoutTargets)

  const nativePerCall = perCall.get('native')?.amount
  const nativeAllowance = allowances.get('native')?.allowance
  return {
    permissions: {
      expiresAt,
      ...(targets ? { targets } : {}),
      ...(nativePerCall === undefined && !nativeAllowance
        ? {}
        : {
            native: {
              ...(nativePerCall === undefined ? {} : { perCall: nativePerCall }),
              ...(nativeAllowance ? { allowance: nativeAllowance } : {}),
            },
          }),
      ...(tokenAllowances.length > 0
        ? { tokens: tokenAllowances.map(({ token, allowance }) => ({ token, allowance })) }
        : {}),
    },
    offChainOnly,
  }
}

function assetOf(
  asset: string,
  tokens: readonly TokenInfo[],
  nativeDecimals: number,
): { key: string; decimals: number } | string {
  if (asset === 'native') return { key: 'native', decimals: nativeDecimals }
  if (asset === 'usd') return 'valued in US dollars from price feeds, which enforcers cannot read'
  const token = tokens.find((t) =>
    asset.startsWith('0x') ? t.address.toLowerCase() === asset.toLowerCase() : t.symbol === asset,
  )
  if (!token) return 'the token is not in the chain address book (its decimals are unknown)'
  return { key: token.address, decimals: token.decimals }
}

/** `limit` in base units, digits the asset cannot hold dropped (rounded down, as the engine does). */
function baseUnits(limit: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = limit.split('.')
  const kept = fraction.slice(0, decimals)
  return parseAmount(kept ? `${whole}.${kept}` : whole, decimals)
}

function keepSmallest<T extends { rule: RulesEngineRule }>(
  kept: Map<string, T>,
  key: string,
  candidate: T,
  amountOf: (entry: T) => bigint,
  skip: (rule: RulesEngineRule, reason: string) => void,
): void {
  const previous = kept.get(key)
  const reason = 'one limit of this kind per asset holds on chain: the smallest is kept'
  if (!previous) kept.set(key, candidate)
  else if (amountOf(candidate) < amountOf(previous)) {
    skip(previous.rule, reason)
    kept.set(key, candidate)
  } else skip(candidate.rule, reason)
}

function targetsOf(
  rules: readonly RulesEngineRule[],
  tokens: readonly TokenInfo[],
  venues: readonly Address[],
  skip: (rule: RulesEngineRule, reason: string) => void,
): Address[] | undefined {
  const recipients = rules.filter((rule) => rule.type === 'allow_recipients')
  const contracts = rules.filter((rule) => rule.type === 'allow_contracts')
  if (recipients.length === 0 || contracts.length === 0) {
    for (const rule of [...recipients, ...contracts]) {
      skip(rule, 'allow_recipients and allow_contracts compile to targets only together')
    }
    return undefined
  }
  for (const rule of contracts) {
    if (rule.contracts.some((contract) => contract.selectors)) {
      skip(rule, 'its selectors stay off chain: AllowedMethods would bind every call')
    }
  }
  // A union: where several lists of one kind apply, the engine admits only what each admits (a ceiling).
  const union = new Map<string, Address>()
  for (const address of [
    ...recipients.flatMap((rule) => rule.addresses),
    ...contracts.flatMap((rule) => rule.contracts.map((contract) => contract.address)),
    ...tokens.map((token) => token.address),
    ...venues,
  ]) {
    union.set(address.toLowerCase(), address)
  }
  return [...union.values()]
}

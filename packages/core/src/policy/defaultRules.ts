import type { PolicyRule } from './types.js'

/**
 * The rule set a new tenant starts with: safe for an autonomous agent on day one, loose enough
 * that ordinary payments never wait. Admins replace it with `POST /policy/update`; existing tenants
 * adopt it the same way (docs/policy.md, "Adopting the defaults"). Rules count what a transaction
 * does (its effects), not its fields: a token transfer written as raw calldata counts as one.
 *
 * - `default-max-per-tx` — no single send above 1 ETH: caps the damage of one bad prompt.
 * - `default-spend-24h` — at most 5 ETH per rolling 24 h: a runaway loop stops within a day's budget.
 * - `default-approval-above` — sends above 0.5 ETH wait for a human (exactly 0.5 goes through).
 * - `default-rate-1h` — at most 60 transactions per hour (one a minute on average): stops tight
 *   retry loops from draining gas while leaving room for bursts.
 * - `default-usd-24h` — at most 10,000 US dollars of priced assets (every token with a price feed,
 *   and the native coin) leave per rolling 24 h, grants counted as spent: the token budget the
 *   native rules cannot see. Unpriced tokens are skipped, as before any default covered tokens.
 * - `default-approval-grants` — any allowance or operator grant to a spender that is not a venue
 *   of the chain's address book (its Uniswap routers) waits for a human: the one-signature drain.
 * - `default-unknown-effects` — a call whose effects could not be predicted waits for a human.
 *
 * Not in the default, on purpose: recipient and contract allowlists (every agent's are different),
 * `newRecipients` approval (it would pause every first payment), chain and time restrictions.
 * @example await policies.replace({ tenantId, rules: defaultTenantRules })
 */
export const defaultTenantRules: readonly PolicyRule[] = Object.freeze([
  rule({ id: 'default-max-per-tx', type: 'max_per_tx', asset: 'native', max: '1' }),
  rule({ id: 'default-spend-24h', type: 'spend_limit', asset: 'native', max: '5', window: '24h' }),
  rule({ id: 'default-approval-above', type: 'require_approval', asset: 'native', above: '0.5' }),
  rule({ id: 'default-rate-1h', type: 'rate_limit', max: 60, window: '1h' }),
  rule({
    id: 'default-usd-24h',
    type: 'spend_limit',
    asset: 'usd',
    max: '10000',
    window: '24h',
    unpriced: 'skip',
  }),
  rule({ id: 'default-approval-grants', type: 'require_approval', grants: true }),
  rule({ id: 'default-unknown-effects', type: 'unknown_effects', action: 'require_approval' }),
])

function rule(value: PolicyRule): PolicyRule {
  return Object.freeze({
    ...value,
    description: `Default rule for new tenants (${value.type})`,
  })
}

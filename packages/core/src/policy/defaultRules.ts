import type { PolicyRule } from './types.js'

/**
 * The rule set a new tenant starts with: safe for an autonomous agent on day one, loose enough
 * that ordinary payments never wait. Admins replace it with `POST /policy/update`. Amounts are in
 * the native coin (ETH); tokens are unrestricted until the tenant adds rules for them, because
 * a token's value cannot be judged without knowing the token.
 *
 * - `default-max-per-tx` — no single send above 1 ETH: caps the damage of one bad prompt.
 * - `default-spend-24h` — at most 5 ETH per rolling 24 h: a runaway loop stops within a day's budget.
 * - `default-approval-above` — sends above 0.5 ETH wait for a human (exactly 0.5 goes through).
 * - `default-rate-1h` — at most 60 transactions per hour (one a minute on average): stops tight
 *   retry loops from draining gas while leaving room for bursts.
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
])

function rule(value: PolicyRule): PolicyRule {
  return Object.freeze({
    ...value,
    description: `Default rule for new tenants (${value.type})`,
  })
}

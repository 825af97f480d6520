/**
 * Policy evaluation speed: a 10k-address allowlist plus the default tenant rules and a time window,
 * 100k evaluate() calls. Run: node --import tsx bench/policy.bench.ts
 * Not a test: it prints numbers and asserts nothing.
 */
import { randomBytes } from 'node:crypto'
import type { PolicyIntent } from '../packages/core/src/intents/types.js'
import { defaultTenantRules } from '../packages/core/src/policy/defaultRules.js'
import { rulesPolicyEngine } from '../packages/core/src/policy/rulesPolicyEngine.js'
import type { PolicyContext, ScopedRule, SpendEntry } from '../packages/core/src/policy/types.js'

const iterations = Number(process.env.ITERATIONS ?? 100_000)
const listSize = 10_000
const engine = rulesPolicyEngine()
const randomAddress = () => `0x${randomBytes(20).toString('hex')}` as const
const addresses = Array.from({ length: listSize }, randomAddress)
const recipient = addresses[listSize - 1]!

let started = performance.now()
const rules = engine.validateRules([
  { type: 'allow_recipients', addresses },
  { type: 'deny_recipients', addresses: addresses.slice(0, 100).map(() => randomAddress()) },
  { type: 'allow_chains', chains: ['devnet', 'base'] },
  {
    type: 'time_window',
    days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
    from: '00:00',
    to: '24:00',
    tz: 'Europe/Berlin',
  },
  ...defaultTenantRules,
])
const validateMs = performance.now() - started

// A copy such as a storage adapter returns: new objects, same content.
started = performance.now()
const stored = JSON.parse(JSON.stringify(rules)) as typeof rules
const scopedCopy: ScopedRule[] = stored.map((rule) => ({ scope: 'tenant', rule }))
const now = new Date('2025-01-06T12:00:00Z')
const recent: SpendEntry[] = Array.from({ length: 50 }, (_, i) => ({
  asset: 'native',
  amount: 10n ** 15n,
  at: now.getTime() - i * 60_000,
  to: recipient,
}))
const intent: PolicyIntent = {
  kind: 'transfer',
  chain: 'devnet',
  from: randomAddress(),
  to: recipient,
  asset: { address: 'native', symbol: 'ETH', decimals: 18 },
  amount: 10n ** 16n,
}
const context: PolicyContext = { now, rules: scopedCopy, recent, isNewRecipient: false }
const first = engine.evaluate(intent, context)
const firstCopyMs = performance.now() - started

for (let i = 0; i < 10_000; i++) engine.evaluate(intent, context) // warm-up

const samples = new Float64Array(iterations)
const total = performance.now()
for (let i = 0; i < iterations; i++) {
  const t = performance.now()
  engine.evaluate(intent, { ...context, now: new Date(now.getTime() + i * 1_000) })
  samples[i] = performance.now() - t
}
const totalMs = performance.now() - total
samples.sort()
const quantile = (q: number) =>
  (samples[Math.min(iterations - 1, Math.floor(q * iterations))]! * 1000).toFixed(2)

console.log(
  `policy evaluate — ${rules.length} rules, ${listSize}-address allowlist, ${recent.length} recent entries`,
)
console.log(`  decision: ${first.decision} (${first.outcomes.length} rule outcomes)`)
console.log(
  `  validateRules (parse + checksum ${listSize} addresses): ${validateMs.toFixed(1)} ms, once per rule change`,
)
console.log(`  first evaluate of a stored copy (content cache hit): ${firstCopyMs.toFixed(2)} ms`)
console.log(`  ${iterations} evaluations: ${(iterations / (totalMs / 1000)).toFixed(0)} ops/s`)
console.log(`  latency p50 ${quantile(0.5)} µs, p99 ${quantile(0.99)} µs, max ${quantile(1)} µs`)

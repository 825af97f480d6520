import { policyRuleSchema, type RulesEngineRule } from './ruleSchemas.js'

export type RuleIssue = { path: (string | number)[]; message: string }
export type CompiledRule = { ok: true; rule: RulesEngineRule } | { ok: false; issues: RuleIssue[] }

// Keyed by the stored rule object: a rule set is parsed once, then every evaluate is lookups only.
// Rules are treated as immutable values; replace the object to change a rule.
const cache = new WeakMap<object, CompiledRule>()
// Storage adapters hand back fresh objects per read. Parsing a 10k-address list (EIP-55 checks)
// costs ~100 ms, its JSON text ~1 ms, so equal content reuses the parse. Bounded by key size.
const byContent = new Map<string, CompiledRule>()
const contentBudget = 32 * 1024 * 1024
let contentSize = 0

/**
 * Parses a stored rule with the rules engine's schemas, once per rule object.
 * @example const compiled = compileRule(rule); if (compiled.ok) compiled.rule.type
 */
export function compileRule(rule: unknown, options: { byContentOnly?: boolean } = {}): CompiledRule {
  const cacheable = typeof rule === 'object' && rule !== null
  // Callers validating input pass byContentOnly: an input object may have been edited since last seen.
  const cached = cacheable && !options.byContentOnly ? cache.get(rule) : undefined
  if (cached) return cached
  const key = cacheable ? contentKey(rule) : undefined
  const known = key === undefined ? undefined : byContent.get(key)
  if (known) {
    cache.set(rule as object, known)
    return known
  }
  const parsed = policyRuleSchema.safeParse(rule)
  const compiled: CompiledRule = parsed.success
    ? { ok: true, rule: parsed.data }
    : {
        ok: false,
        issues: parsed.error.issues.map((issue) => ({
          path: issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key)),
          message: issue.message,
        })),
      }
  if (cacheable) cache.set(rule, compiled)
  if (key !== undefined) remember(key, compiled)
  return compiled
}

function contentKey(rule: unknown): string | undefined {
  try {
    return canonicalJson(rule)
  } catch {
    return undefined // bigint or a cycle: not a stored rule, just parse it
  }
}

function remember(key: string, compiled: CompiledRule): void {
  if (key.length > contentBudget) return
  byContent.set(key, compiled)
  contentSize += key.length
  // Map iteration is insertion order, so the oldest entries go first.
  for (const [oldest] of byContent) {
    if (contentSize <= contentBudget) break
    byContent.delete(oldest)
    contentSize -= oldest.length
  }
}

/** Records an already-parsed rule so evaluating it (or a stored copy of it) costs no second parse. */
export function primeCompiledRule(rule: RulesEngineRule): void {
  const compiled: CompiledRule = { ok: true, rule }
  cache.set(rule, compiled)
  const key = contentKey(rule)
  if (key !== undefined) remember(key, compiled)
}

// Sorted keys: a JSON column (Postgres jsonb) may hand the same rule back with its keys reordered.
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
    return `{${entries.join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

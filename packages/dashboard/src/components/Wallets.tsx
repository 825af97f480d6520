import { useReloadOn, useSignedIn } from '../events.js'
import { dateTime, formatUnits, shortAddress } from '../format.js'
import type { Balance, PolicyRule, RuleOutcome, SmartWallet, Transaction, Wallet } from '../types.js'
import { Address, ErrorNote, StatusBadge, TxHash, useLoader } from './common.js'
import { LimitBar } from './LimitBar.js'

type WalletData = {
  wallet: Wallet
  balance: Balance | undefined
  rules: PolicyRule[]
  /** The key holding the wallet, when it has rules of its own (counted over all its wallets). */
  agent: { name: string; ruleIds: Set<string> } | undefined
  outcomes: RuleOutcome[]
  history: Transaction[]
  historyCount: number
}

/** Statuses that count against limits (docs/policy.md: spend_limit). */
const counted = new Set(['pending_approval', 'queued', 'submitted', 'confirmed'])
const addressPattern = /^0x[0-9a-fA-F]{40}$/

export function Wallets() {
  const { api } = useSignedIn()
  const { data, error, reload } = useLoader<WalletData[]>(async () => {
    const { wallets } = await api.listWallets({ limit: 1000 })
    return Promise.all(wallets.map((wallet) => loadWallet(api, wallet)))
  })
  useReloadOn(['tx.', 'policy.', 'approval.', 'wallet.'], reload)
  return (
    <section aria-labelledby="wallets-title">
      <h1 id="wallets-title">Wallets</h1>
      {error && <ErrorNote>Could not load wallets: {error}</ErrorNote>}
      {!data && !error && <p class="muted">Loading…</p>}
      {data?.length === 0 && <p class="empty">No wallets in this tenant yet.</p>}
      {data?.map((item) => (
        <WalletCard key={item.wallet.id} item={item} />
      ))}
    </section>
  )
}

async function loadWallet(api: ReturnType<typeof useSignedIn>['api'], listed: Wallet): Promise<WalletData> {
  // A smart wallet's own view adds what the tenant's paymaster paid for it (the list leaves it out).
  const [wallet, balance, rules, history] = await Promise.all([
    listed.smart
      ? api.getWallet({ wallet: listed.address }).then(
          (body) => body.wallet,
          () => listed,
        )
      : Promise.resolve(listed),
    api.getBalance({ wallet: listed.address }).catch(() => undefined),
    api.getPolicyRules({ wallet: listed.address }),
    api.listHistory({ wallet: listed.address, limit: 25 }),
  ])
  const all = [...rules.tenant, ...(rules.agent?.rules ?? []), ...(rules.wallet?.rules ?? [])].filter(
    (rule) => rule.enabled !== false,
  )
  const agent = rules.agent?.rules.length
    ? { name: rules.agent.name, ruleIds: new Set(rules.agent.rules.map((rule) => rule.id)) }
    : undefined
  // The spend already counted in each window comes from the policy engine itself: a dry run of a
  // zero-value send (POST /policy/evaluate stores nothing) lists every rule's figures in `outcomes`.
  const tokens = [
    ...new Set(
      all
        .filter((rule) => typeof rule.asset === 'string' && addressPattern.test(rule.asset))
        .map((rule) => rule.asset as string),
    ),
  ]
  const probes = [undefined, ...tokens].map((token) =>
    api
      .evaluatePolicy({ wallet: wallet.address, to: wallet.address, value: '0', ...(token ? { token } : {}) })
      .then((body) => body.decision.outcomes ?? [])
      .catch(() => [] as RuleOutcome[]),
  )
  const outcomes = (await Promise.all(probes)).flat()
  return {
    wallet,
    balance,
    rules: all,
    agent,
    outcomes,
    history: history.transactions,
    historyCount: history.count,
  }
}

function WalletCard({ item }: { item: WalletData }) {
  const { wallet, balance } = item
  const titleId = `wallet-${wallet.id}`
  return (
    <article class="card wallet" aria-labelledby={titleId} data-wallet={wallet.address}>
      <h2 id={titleId}>{wallet.agentName}</h2>
      <p>
        <Address value={wallet.address} /> <span class="muted">on {wallet.chain}</span>
        {wallet.kind === 'smart' ? <span class="muted"> · smart account</span> : null}
      </p>
      {wallet.smart ? <SessionKey smart={wallet.smart} /> : null}
      <h3>Balance</h3>
      {balance ? (
        <ul class="balances">
          <li>
            <strong>{balance.eth}</strong> ETH
          </li>
          {balance.tokens.map((token) => (
            <li key={token.address}>
              <strong>{token.balance}</strong> {token.symbol}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">Balance unavailable (chain not reachable).</p>
      )}
      <h3>Limits</h3>
      <Limits item={item} />
      <h3>Transactions</h3>
      <History item={item} />
    </article>
  )
}

/** A smart wallet's session key: its address, expiry, and the limits the chain enforces for it. */
function SessionKey({ smart }: { smart: SmartWallet }) {
  const { native, tokens = [], targets } = smart.permissions
  const per = (allowance: { amount: string; period: number }, decimals: number, unit: string) =>
    `${formatUnits(allowance.amount, decimals)} ${unit} per ${allowance.period} s`
  const limits = [
    ...(native?.perCall ? [`at most ${formatUnits(native.perCall, 18)} ETH a call`] : []),
    ...(native?.allowance ? [per(native.allowance, 18, 'ETH')] : []),
    ...tokens.map(({ token, allowance }) => `${per(allowance, 0, 'base units')} of ${shortAddress(token)}`),
    ...(targets ? [`only to ${targets.length} address${targets.length === 1 ? '' : 'es'}`] : []),
  ]
  return (
    <section aria-label="Session key">
      <h3>Session key</h3>
      <p>
        <Address value={smart.sessionKey} /> <span class="muted">until {dateTime(smart.expiresAt)}</span>
      </p>
      <ul class="session-limits">
        {limits.length > 0 ? (
          limits.map((limit) => <li key={limit}>{limit}</li>)
        ) : (
          <li>no on-chain limit but the expiry</li>
        )}
      </ul>
      {smart.sponsoredGas ? (
        <p class="sponsored-gas">
          Sponsored gas in the last 24 h: <strong>{formatUnits(smart.sponsoredGas.spent, 18)}</strong> ETH{' '}
          <span class="muted">
            (paymaster <Address value={smart.sponsoredGas.paymaster} />)
          </span>
        </p>
      ) : null}
    </section>
  )
}

function Limits({ item }: { item: WalletData }) {
  // An agent's rule counts every wallet its key holds: say so, so the bar is not read as this wallet's.
  const ruleName = (rule: PolicyRule) =>
    item.agent?.ruleIds.has(rule.id)
      ? `${nameOf(rule)}; agent ${item.agent.name}, all its wallets`
      : nameOf(rule)
  const bars = item.rules.flatMap((rule) => {
    const outcome = item.outcomes.find((candidate) => candidate.ruleId === rule.id)
    const details = outcome?.details ?? {}
    const text = (name: string) => (typeof details[name] === 'string' ? (details[name] as string) : undefined)
    const symbol = text('symbol') ?? String(rule.asset ?? '')
    if (rule.type === 'spend_limit' && text('spent') && text('limit')) {
      return [
        <LimitBar
          key={rule.id}
          label={`Spent in the last ${rule.window as string} (${ruleName(rule)})`}
          used={text('spent')!}
          limit={text('limit')!}
          unit={symbol}
        />,
      ]
    }
    if (rule.type === 'max_per_tx' && text('limit')) {
      const largest = largestRecent(item.history, symbol)
      return [
        <LimitBar
          key={rule.id}
          label={`Largest recent send vs per-transaction cap (${ruleName(rule)})`}
          used={largest}
          limit={text('limit')!}
          unit={symbol}
          note={`From the last ${item.history.length} transactions in the history.`}
        />,
      ]
    }
    if (rule.type === 'rate_limit' && typeof details.count === 'number') {
      return [
        <LimitBar
          key={rule.id}
          label={`Transactions in the last ${rule.window as string} (${ruleName(rule)})`}
          used={String(details.count)}
          limit={String(rule.max)}
          unit="txs"
        />,
      ]
    }
    return []
  })
  const others = item.rules.filter(
    (rule) =>
      !['spend_limit', 'max_per_tx', 'rate_limit'].includes(rule.type) ||
      !item.outcomes.some((o) => o.ruleId === rule.id),
  )
  return (
    <div class="limits">
      {bars.length === 0 && <p class="muted">No spend or count limits apply to this wallet.</p>}
      {bars}
      {others.length > 0 && (
        <ul class="other-rules">
          {others.map((rule) => (
            <li key={rule.id}>
              {typeof rule.description === 'string' && <strong>{rule.description}</strong>}{' '}
              <span class="rule">{rule.id}</span> {describeRule(rule)}
              {item.agent?.ruleIds.has(rule.id) && (
                <span class="muted" data-testid="agent-rule">
                  {' '}
                  (agent {item.agent.name}, all its wallets)
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** The largest counted send in `symbol` among the loaded history (base units compared exactly). */
function largestRecent(history: Transaction[], symbol: string): string {
  let best: Transaction | undefined
  for (const tx of history) {
    if (!counted.has(tx.status) || tx.asset.symbol !== symbol) continue
    if (!best || BigInt(tx.amountRaw) > BigInt(best.amountRaw)) best = tx
  }
  return best?.amount ?? '0'
}

/** A rule as people named it: its description, else its id. */
function nameOf(rule: PolicyRule): string {
  return typeof rule.description === 'string' ? `${rule.description}, ${rule.id}` : rule.id
}

function describeRule(rule: PolicyRule): string {
  const { id: _id, type, enabled: _enabled, description: _description, ...fields } = rule
  const shown = Object.entries(fields)
    .map(
      ([name, value]) =>
        `${name} ${Array.isArray(value) ? `${value.length} entries` : JSON.stringify(value)}`,
    )
    .join(', ')
  return `${type.replace(/_/g, ' ')}${shown ? `: ${shown}` : ''}`
}

function History({ item }: { item: WalletData }) {
  if (item.history.length === 0) return <p class="muted">No transactions yet.</p>
  return (
    // A focusable region, so a keyboard user can scroll the table sideways on a narrow screen.
    <section
      class="table-wrap"
      aria-label={`Transactions of ${item.wallet.agentName}`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
    >
      <table>
        <caption class="sr-only">Transactions of {item.wallet.agentName}, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Status</th>
            <th scope="col">Amount</th>
            <th scope="col">To</th>
            <th scope="col">Hash</th>
          </tr>
        </thead>
        <tbody>
          {item.history.map((tx) => (
            <tr key={tx.id} data-tx={tx.id}>
              <td>{dateTime(tx.createdAt)}</td>
              <td>
                <StatusBadge status={tx.status} />
              </td>
              <td class="amount">
                {tx.amount} {tx.asset.symbol}
              </td>
              <td>
                <Address value={tx.to} />
              </td>
              <td>
                <TxHash hash={tx.hash} explorer={tx.explorer} status={tx.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {item.historyCount > item.history.length && (
        <p class="muted small">
          Showing the newest {item.history.length} of {item.historyCount}.
        </p>
      )}
    </section>
  )
}

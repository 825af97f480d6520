import { effectsHeadline, orderEffects } from '@agentwallet/client'
import { useState } from 'preact/hooks'
import type { Api } from '../api.js'
import { reverseName } from '../ensNames.js'
import { useReloadOn, useSignedIn } from '../events.js'
import { compareDecimals, dateTime, formatUnits, shortAddress, timeLeft } from '../format.js'
import type { Approval, ApprovalFunds, Effect, KeyName, PolicyRule, Transaction, Wallet } from '../types.js'
import { Address, ErrorNote, messageOf, StatusBadge, TxHash, useLoader, useNow } from './common.js'
import { EffectsList } from './EffectsList.js'
import { ScreeningVerdicts } from './ScreeningVerdicts.js'

/**
 * `ensName` is the counterparty's primary ENS name (the lead effect's: the recipient, the spender; else
 * the called address) where its reverse record resolves (checked forward),
 * `null` when it has none; `rule` the rule that paused it; `funds` whether the wallet still covers it.
 */
type Row = {
  approval: Approval
  wallet: Wallet | undefined
  tx: Transaction | undefined
  ensName?: string | null | undefined
  rule?: PolicyRule | undefined
  funds?: ApprovalFunds | undefined
}
type Loaded = {
  pending: Row[]
  resolved: Row[]
  byAddress: Map<string, Wallet>
  /** Key names by key id: who asked, who decided. */
  people: Map<string, KeyName>
}

const liveTypes = ['policy.hitl', 'approval.resolved', 'tx.'] as const

/** Paused sends waiting for a human, live over /ws, plus the most recent decisions and their txs. */
export function Approvals() {
  const { api } = useSignedIn()
  const { data, error, reload } = useLoader<Loaded>(async () => {
    const [{ wallets }, { approvals: pending }, { approvals: recent }] = await Promise.all([
      api.listWallets({ limit: 1000 }),
      api.listApprovals({ status: 'pending', limit: 200 }),
      api.listApprovals({ limit: 20 }),
    ])
    const resolved = recent.filter((approval) => approval.status !== 'pending').slice(0, 10)
    const all = [...pending, ...resolved]
    // GET /wallet/tx/:id accepts the tx id too; the approval record itself holds no recipient or amount.
    const txs = await Promise.all(
      all.map((approval) =>
        api
          .getTransaction({ transaction: approval.transactionId })
          .then((body) => body.transaction)
          .catch(() => undefined),
      ),
    )
    const byId = new Map(wallets.map((wallet) => [wallet.id, wallet]))
    const byAddress = new Map(wallets.map((wallet) => [wallet.address.toLowerCase(), wallet]))
    const [names, rules, people, funds] = await Promise.all([
      // Only pending cards show the recipient's name.
      Promise.all(
        pending.map((approval, index) => {
          const tx = txs[index]
          return tx ? reverseName(api, leadOf(approval, tx)?.counterparty ?? tx.to) : undefined
        }),
      ),
      rulesOf(
        api,
        all.map((approval) => byId.get(approval.walletId)).filter((wallet) => wallet !== undefined),
      ),
      api
        .listKeyNames()
        .then((body) => new Map(body.keys.map((key) => [key.id, key])))
        .catch(() => new Map<string, KeyName>()),
      Promise.all(
        pending.map((approval) => api.checkApprovalFunds({ approvalId: approval.id }).catch(() => undefined)),
      ),
    ])
    const rows = all.map((approval, index) => ({
      approval,
      wallet: byId.get(approval.walletId),
      tx: txs[index],
      ensName: names[index],
      rule: approval.ruleId ? rules.get(approval.walletId)?.get(approval.ruleId) : undefined,
      funds: funds[index],
    }))
    return {
      pending: rows.slice(0, pending.length),
      resolved: rows.slice(pending.length),
      byAddress,
      people,
    }
  })
  useReloadOn(liveTypes, reload)
  const now = useNow()

  return (
    <section aria-labelledby="approvals-title">
      <h1 id="approvals-title">Pending approvals</h1>
      {error && <ErrorNote>Could not load approvals: {error}</ErrorNote>}
      {!data && !error && <p class="muted">Loading…</p>}
      {data && data.pending.length === 0 && (
        <p class="empty" data-testid="no-pending">
          Nothing is waiting for you. New requests appear here as soon as an agent's send is paused.
        </p>
      )}
      <ul class="cards" aria-label="Pending approvals">
        {data?.pending.map((row) => (
          <PendingCard
            key={row.approval.id}
            row={row}
            now={now}
            byAddress={data.byAddress}
            people={data.people}
            onDone={reload}
          />
        ))}
      </ul>
      <h2>Recently resolved</h2>
      {data && data.resolved.length === 0 && <p class="muted">No decisions yet.</p>}
      <ul class="cards" aria-label="Recently resolved approvals">
        {data?.resolved.map((row) => (
          <ResolvedCard key={row.approval.id} row={row} people={data.people} />
        ))}
      </ul>
    </section>
  )
}

function PendingCard(props: {
  row: Row
  now: number
  byAddress: Map<string, Wallet>
  people: Map<string, KeyName>
  onDone(): void
}) {
  const { approval, wallet, tx, rule, funds } = props.row
  const { api, announce } = useSignedIn()
  const [rejecting, setRejecting] = useState(false)
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string>()
  const titleId = `apr-${approval.id}`
  const swap = swapOf(tx)
  const allowance = allowanceOf(tx)
  const x402 = x402Of(tx)
  // A plain send or call leads with what it does (its effects), not with the address it calls.
  const lead = swap || allowance || x402 ? undefined : leadOf(approval, tx)
  const counterparty = lead?.counterparty ?? tx?.to
  const recipientWallet = counterparty && props.byAddress.get(counterparty.toLowerCase())
  const nameOf = (address: string) =>
    (address === counterparty && props.row.ensName) ||
    props.byAddress.get(address.toLowerCase())?.agentName ||
    shortAddress(address)
  const headline =
    !swap && !allowance && !x402 && approval.effects
      ? effectsHeadline(approval.effects, { name: nameOf })
      : `${describe(tx)} from ${wallet?.agentName ?? 'an agent'}`

  const resolve = async (action: 'approve' | 'reject') => {
    setBusy(true)
    setFailure(undefined)
    try {
      const why = action === 'reject' && reason.trim() ? { reason: reason.trim() } : {}
      const result = await api[action]({ approvalId: approval.id, ...why })
      announce(
        action === 'approve'
          ? `Approved. Transaction ${result.transaction.hash ?? ''} ${result.transaction.status}.`
          : 'Rejected. The reserved spend was released.',
      )
      props.onDone()
    } catch (error) {
      setFailure(messageOf(error))
      setBusy(false)
    }
  }

  return (
    <li class="card approval" aria-labelledby={titleId} data-approval-id={approval.id}>
      <h3 id={titleId} data-testid="headline">
        {headline}
      </h3>
      <dl class="facts">
        <dt>Wallet</dt>
        <dd>
          {wallet ? (
            <>
              {wallet.agentName} · <Address value={wallet.address} />
            </>
          ) : (
            approval.walletId
          )}
        </dd>
        <dt>Asked by</dt>
        <dd data-testid="requested-by">
          <Person id={approval.requestedBy} people={props.people} />
        </dd>
        {swap && (
          <>
            <dt>Receives at least</dt>
            <dd class="amount" data-testid="swap-minimum">
              {formatUnits(swap.minAmountOut, swap.toDecimals)} {swap.toSymbol}
              <span class="muted">
                {' '}
                (quoted {formatUnits(swap.expectedAmountOut, swap.toDecimals)} at {swap.venue})
              </span>
            </dd>
          </>
        )}
        {allowance && (
          <>
            <dt>Allows</dt>
            <dd data-testid="swap-allowance">
              {allowance.venue} to spend {allowance.unlimited ? 'any amount of' : allowance.amount}{' '}
              {tx?.asset.symbol} (for a swap)
            </dd>
          </>
        )}
        {x402 && (
          <>
            <dt>Resource</dt>
            <dd data-testid="x402-resource">
              <code>{x402.resource}</code>
            </dd>
          </>
        )}
        <dt>
          {swap ? 'Router' : allowance ? 'Token' : x402 ? 'Payee' : lead ? roleOf[lead.kind] : 'Recipient'}
        </dt>
        <dd>
          {props.row.ensName ? (
            <>
              <strong data-testid="recipient-ens">{props.row.ensName}</strong>{' '}
            </>
          ) : (
            props.row.ensName === null &&
            !swap &&
            !allowance && (
              <>
                <span class="muted" data-testid="recipient-no-ens">
                  no name
                </span>{' '}
              </>
            )
          )}
          {counterparty ? <Address value={counterparty} /> : '—'}
          {recipientWallet && <span class="muted"> (managed wallet “{recipientWallet.agentName}”)</span>}
          {x402?.agent && <span data-testid="payee-agent"> · ERC-8004 agent #{x402.agent.agentId}</span>}
          {x402 && !x402.agent && x402.claimedAgentId && (
            <span class="muted" data-testid="payee-agent-claimed">
              {' '}
              (claims ERC-8004 agent #{x402.claimedAgentId}, not verified)
            </span>
          )}
        </dd>
        {/* Known effects say the amounts below ("What it does"); the call's own value would read "0 ETH". */}
        {!lead && (
          <>
            <dt>Amount</dt>
            <dd class="amount">
              {tx ? `${tx.amount} ${tx.asset.symbol}` : '—'}
              {tx?.usd && (
                <span class="muted" data-testid="amount-usd">
                  {' '}
                  ≈ ${tx.usd.value}
                </span>
              )}
            </dd>
          </>
        )}
        {approval.effects && (
          <>
            <dt>What it does</dt>
            <dd>
              <EffectsList effects={approval.effects} />
            </dd>
          </>
        )}
        <dt>Paused by</dt>
        <dd data-testid="paused-by">
          {typeof rule?.description === 'string' && (
            <>
              <strong data-testid="rule-description">{rule.description}</strong>{' '}
            </>
          )}
          <span class="rule">{approval.ruleId ?? 'policy'}</span>: {approval.reason}
          <RuleNumbers details={approval.details} />
          <ScreeningVerdicts details={approval.details} />
        </dd>
        <dt>Time left</dt>
        <dd>
          <time dateTime={approval.expiresAt} title={dateTime(approval.expiresAt)}>
            {timeLeft(approval.expiresAt, props.now)}
          </time>
        </dd>
      </dl>
      {funds && !funds.covered && <FundsWarning funds={funds} />}
      {failure && <ErrorNote>{failure}</ErrorNote>}
      {!rejecting ? (
        <div class="actions">
          <button type="button" disabled={busy} onClick={() => resolve('approve')}>
            Approve
          </button>
          <button type="button" class="danger" disabled={busy} onClick={() => setRejecting(true)}>
            Reject…
          </button>
        </div>
      ) : (
        <form
          class="reject"
          onSubmit={(event) => {
            event.preventDefault()
            void resolve('reject')
          }}
        >
          <label for={`reason-${approval.id}`}>Reason for rejecting (optional, shown in the audit log)</label>
          <textarea
            id={`reason-${approval.id}`}
            maxLength={500}
            rows={2}
            value={reason}
            onInput={(event) => setReason((event.target as HTMLTextAreaElement).value)}
            // biome-ignore lint/a11y/noAutofocus: the field the user just asked for
            autoFocus
          />
          <div class="actions">
            <button type="submit" class="danger" disabled={busy}>
              Confirm reject
            </button>
            <button type="button" class="secondary" disabled={busy} onClick={() => setRejecting(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </li>
  )
}

/** The figures that decided the pause (threshold, requested, …), without the raw base units. */
function RuleNumbers({ details }: { details: Record<string, unknown> | undefined }) {
  if (!details) return null
  const symbol = typeof details.symbol === 'string' ? details.symbol : ''
  const entries = Object.entries(details).filter(
    ([name, value]) =>
      !name.endsWith('Raw') && name !== 'symbol' && (typeof value === 'string' || typeof value === 'number'),
  )
  if (entries.length === 0) return null
  return (
    <ul class="numbers">
      {entries.map(([name, value]) => (
        <li key={name}>
          {name}: <strong>{String(value)}</strong>
          {symbol && /^(threshold|requested|limit|spent|remaining)$/.test(name) ? ` ${symbol}` : ''}
        </li>
      ))}
    </ul>
  )
}

function ResolvedCard({ row, people }: { row: Row; people: Map<string, KeyName> }) {
  const { approval, wallet, tx } = row
  const lead = swapOf(tx) || allowanceOf(tx) ? undefined : leadOf(approval, tx)
  const counterparty = lead?.counterparty ?? tx?.to
  return (
    <li class="card resolved" data-approval-id={approval.id}>
      <h3>
        {lead && approval.effects
          ? effectsHeadline(approval.effects, { name: shortAddress })
          : `${tx ? `${tx.amount} ${tx.asset.symbol}` : 'Send'} from ${wallet?.agentName ?? 'an agent'}`}{' '}
        <StatusBadge status={approval.status} />
      </h3>
      <dl class="facts">
        <dt>{lead ? roleOf[lead.kind] : 'Recipient'}</dt>
        <dd>{counterparty ? <Address value={counterparty} /> : '—'}</dd>
        <dt>Decided</dt>
        <dd>
          {approval.resolvedAt ? dateTime(approval.resolvedAt) : '—'}
          {approval.resolvedBy && (
            <span data-testid="resolved-by">
              {' '}
              by <Person id={approval.resolvedBy} people={people} />
            </span>
          )}
        </dd>
        {approval.resolutionReason && (
          <>
            <dt>Reason</dt>
            <dd class="reason">{approval.resolutionReason}</dd>
          </>
        )}
        {tx && (
          <>
            <dt>Transaction</dt>
            <dd>
              <StatusBadge status={tx.status} />{' '}
              <TxHash hash={tx.hash} explorer={tx.explorer} status={tx.status} />
              {tx.blockNumber !== null && <span class="muted"> · block {tx.blockNumber}</span>}
            </dd>
          </>
        )}
        <dt>Audit</dt>
        <dd>
          <a href={`#/audit/${approval.id}`} data-testid="audit-link">
            Audit entries
          </a>
        </dd>
      </dl>
    </li>
  )
}

/** A key as a person: its name and role; the id only for a key this caller cannot name. */
function Person({ id, people }: { id: string; people: Map<string, KeyName> }) {
  const key = people.get(id)
  if (!key) return <span class="muted">key {id}</span>
  return (
    <span title={id}>
      <strong>{key.name}</strong>{' '}
      <span class="muted">
        ({key.role}
        {key.revoked ? ', revoked' : ''})
      </span>
    </span>
  )
}

/** Approving now would fail with insufficient_funds: say so before anyone clicks. */
function FundsWarning({ funds }: { funds: ApprovalFunds }) {
  const short = funds.token && compareDecimals(funds.token.balance, funds.token.required) < 0
  return (
    <p class="warning" role="note" data-testid="funds-warning">
      The wallet cannot cover this any more:{' '}
      {short && funds.token
        ? `it holds ${funds.token.balance} ${funds.token.symbol} of the ${funds.token.required} ${funds.token.symbol} it sends.`
        : `it holds ${funds.native.balance} ETH and needs ${neededEth(funds.native)}.`}{' '}
      Approving it now would fail.
    </p>
  )
}

function neededEth({ required, gasIncluded }: ApprovalFunds['native']): string {
  if (!required) return 'more'
  return gasIncluded ? `${required} ETH (amount + gas)` : `${required} ETH before gas`
}

/** The rules that apply to each wallet (its own over its agent's over the tenant's), by wallet id and rule id. */
async function rulesOf(api: Api, wallets: Wallet[]): Promise<Map<string, Map<string, PolicyRule>>> {
  const unique = [...new Map(wallets.map((wallet) => [wallet.id, wallet])).values()]
  const entries = await Promise.all(
    unique.map(async (wallet) => {
      const rules = await api
        .getPolicyRules({ wallet: wallet.address })
        .catch(() => ({ tenant: [] as PolicyRule[], agent: undefined, wallet: undefined }))
      const scoped = [...rules.tenant, ...(rules.agent?.rules ?? []), ...(rules.wallet?.rules ?? [])]
      const byId = new Map(scoped.map((rule) => [rule.id, rule]))
      return [wallet.id, byId] as const
    }),
  )
  return new Map(entries)
}

type SwapMeta = {
  venue: string
  toSymbol: string
  toDecimals: number
  minAmountOut: string
  expectedAmountOut: string
}

/** A paused swap's terms, from the transaction's meta (older records lack the symbol: no terms). */
function swapOf(tx: Transaction | undefined): SwapMeta | undefined {
  const meta = tx?.kind === 'swap' ? tx.meta : undefined
  if (!meta || typeof meta.toSymbol !== 'string' || typeof meta.toDecimals !== 'number') return undefined
  return meta as unknown as SwapMeta
}

/** The ERC-20 approve a swap sends first, when its allowance was short. */
function allowanceOf(tx: Transaction | undefined) {
  const meta = tx?.meta
  if (!tx || meta?.purpose !== 'swap_allowance') return undefined
  const raw = String(meta.allowance ?? '0')
  // 2^256 − 1 (78 digits): an address-book router gets an unlimited allowance.
  const unlimited = raw.length >= 70
  return { venue: String(meta.venue), unlimited, amount: formatUnits(raw, tx.asset.decimals) }
}

/** A paused x402 payment's resource and payee agent (verified by an identity rule, or only claimed). */
function x402Of(tx: Transaction | undefined) {
  if (tx?.kind !== 'x402_payment') return undefined
  const meta = tx.meta ?? {}
  const agent = meta.payeeAgent as { agentId?: unknown } | undefined
  return {
    resource: String(meta.resource ?? ''),
    agent: typeof agent?.agentId === 'string' ? { agentId: agent.agentId } : undefined,
    claimedAgentId: typeof meta.payeeAgentId === 'string' ? meta.payeeAgentId : undefined,
  }
}

/** The effect a card leads with: the largest outflow (else the first effect), when the effects are known. */
function leadOf(approval: Approval, tx: Transaction | undefined): Effect | undefined {
  if (approval.effects?.status !== 'known' || tx?.kind === 'swap' || tx?.kind === 'x402_payment')
    return undefined
  return orderEffects(approval.effects.effects)[0]
}

/** What the lead effect's counterparty is to the wallet. */
const roleOf: Record<Effect['kind'], string> = {
  out: 'Recipient',
  in: 'Sender',
  grant: 'Spender',
  revoke: 'Spender',
}

/** A swap's, an allowance's or an x402 payment's title, or one for a send whose effects are not stored. */
function describe(tx: Transaction | undefined): string {
  if (!tx) return 'Send'
  if (x402Of(tx)) return `Pay ${tx.amount} ${tx.asset.symbol} for an HTTP resource (x402)`
  const swap = swapOf(tx)
  if (swap) return `Swap ${tx.amount} ${tx.asset.symbol} → ${swap.toSymbol}`
  if (allowanceOf(tx)) return `Allow a swap to spend ${tx.asset.symbol}`
  return `${tx.amount} ${tx.asset.symbol}`
}

import type { AgentWalletContext } from '../context.js'
import { isAgentWalletError } from '../errors/baseError.js'
import type { PolicyIntent } from '../intents/types.js'
import { ScreeningUnavailableError } from '../screening/screeningUnavailableError.js'
import type {
  ScreeningFacts,
  ScreeningOutage,
  ScreeningQuery,
  ScreeningResult,
  ScreeningSource,
} from '../screening/types.js'
import { counterpartiesOf } from './counterpartiesOf.js'

/**
 * Asks every screening source the rules want about every counterparty of the intent's effects, and
 * each source that judges calls about a contract call as a whole, all at once. Every answer and
 * outage is counted for `/metrics`. An outage is collected, never read as "clear": the caller and
 * the engine decide by the rules' `onOutage`.
 * @example const facts = await screenIntent(ctx, wallet.tenantId, intent, { onOutage: 'closed' }, venues)
 */
export async function screenIntent(
  ctx: Pick<AgentWalletContext, 'chains' | 'screening'>,
  tenantId: string,
  intent: PolicyIntent,
  query: ScreeningQuery,
  venues: readonly string[] = [],
): Promise<ScreeningFacts> {
  // Any family's chain: its facts, not its client (`get` is the EVM handle's, and refuses a Solana chain).
  const chain = ctx.chains.list().find(({ name }) => name === intent.chain) ?? ctx.chains.get(intent.chain)
  const sources = ctx.screening.sources.filter(
    (source) => query.sources === undefined || query.sources.includes(source.name),
  )
  const base = { tenantId, chain: chain.name, chainId: chain.chainId, family: chain.family ?? 'evm' }
  const outages: ScreeningOutage[] = []
  const ask = async (source: ScreeningSource, subject: string, run: () => Promise<ScreeningResult>) => {
    try {
      const result = await run()
      // An answer that is no verdict (a plugin's bug) is not read as one: it is an outage.
      if (!verdicts.has(result?.verdict)) throw new ScreeningUnavailableError(source.name)
      ctx.screening.counts.verdict(source.name, result.verdict)
      return [result]
    } catch (error) {
      ctx.screening.counts.outage(source.name)
      outages.push({ source: source.name, subject, reason: reasonOf(error) })
      return []
    }
  }
  const screened = Promise.all(
    counterpartiesOf(intent, venues).map(async ({ address, roles }) => ({
      address,
      roles,
      results: (
        await Promise.all(
          sources.map((source) => ask(source, address, () => source.screenAddress({ ...base, address }))),
        )
      ).flat(),
    })),
  )
  const callTo = intent.via ?? intent.to
  const isCall = intent.kind !== 'x402_payment' && intent.data !== undefined && intent.data !== '0x'
  const called = isCall
    ? Promise.all(
        sources.map((source) =>
          source.screenCall
            ? ask(source, 'call', () =>
                source.screenCall!({
                  ...base,
                  from: intent.from,
                  to: callTo,
                  value: intent.asset.address === 'native' && !intent.via ? intent.amount.toString() : '0',
                  data: intent.data,
                }),
              )
            : Promise.resolve([]),
        ),
      ).then((results) => results.flat())
    : undefined
  // The call is asked beside the counterparties, not after them.
  const [counterparties, callResults] = await Promise.all([screened, called])
  return {
    counterparties,
    ...(callResults ? { call: { to: callTo, results: callResults } } : {}),
    outages,
  }
}

/**
 * The screening sources' answers for an intent's counterparties when a rule asks (`query`; undefined:
 * none does, nothing is asked). With no `block` among them, an outage under `onOutage: "closed"` is
 * `screening_unavailable` (503, nothing stored): retry later. A block decides without the missing
 * answer, so it still denies.
 * @example const facts = await screeningFacts(ctx, tenantId, intent, ctx.policy.screeningQuery?.(rules), venues)
 */
export async function screeningFacts(
  ctx: Pick<AgentWalletContext, 'chains' | 'screening'>,
  tenantId: string,
  intent: PolicyIntent,
  query: ScreeningQuery | undefined,
  venues: readonly string[] = [],
): Promise<ScreeningFacts | undefined> {
  if (!query) return undefined
  const facts = await screenIntent(ctx, tenantId, intent, query, venues)
  const [outage] = facts.outages
  if (outage && query.onOutage === 'closed' && !hasBlock(facts))
    throw new ScreeningUnavailableError(outage.source, {
      details: { subject: outage.subject, reason: outage.reason, outages: facts.outages },
    })
  return facts
}

/** True when some source said `block` of a counterparty or of the call. */
export function hasBlock(facts: ScreeningFacts): boolean {
  const results = [...facts.counterparties.flatMap((entry) => entry.results), ...(facts.call?.results ?? [])]
  return results.some((result) => result.verdict === 'block')
}

const verdicts = new Set<unknown>(['clear', 'warn', 'block'])

function reasonOf(error: unknown): string {
  // Our own errors carry a message that is safe to record; anything else is the adapter's fault.
  if (isAgentWalletError(error)) {
    const why = error.details?.reason
    return typeof why === 'string' ? `${error.shortMessage}: ${why}` : error.shortMessage
  }
  return 'the source failed without an answer'
}

import type { Address } from 'viem'
import { identityRegistryAbi } from '../chain/identityRegistryAbi.js'
import { reputationRegistryAbi } from '../chain/reputationRegistryAbi.js'
import { isRevert, toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import type { CounterpartyFacts, PolicyIntent, ReputationQuery } from '../intents/types.js'

/**
 * What the chain's ERC-8004 registries say of an intent's payee, read before the pure engine runs:
 * the agent whose registered `agentWallet` it is — the one it claims (`payeeAgentId`), else one of
 * the identities AgentWallet registered for that address — and each reputation query's summary.
 * Only what the registries answered is a fact: a node that does not answer (or answers an error of
 * its own) is thrown as `chain_unavailable`, never read as "no agent" or "no reputation".
 * @example const facts = await counterpartyFacts(ctx, intent, [{ reviewers, tag1: '', tag2: '' }])
 */
export async function counterpartyFacts(
  ctx: Pick<AgentWalletContext, 'chains' | 'storage'>,
  intent: PolicyIntent,
  queries: readonly ReputationQuery[],
): Promise<CounterpartyFacts> {
  const chain = ctx.chains.get(intent.chain)
  const registry = chain.contracts.erc8004?.identityRegistry
  if (!registry) return { reason: `chain ${chain.name} has no ERC-8004 Identity Registry`, reputation: [] }
  const candidates =
    intent.payeeAgentId !== undefined ? [intent.payeeAgentId] : await knownAgentIds(ctx, chain, intent.to)
  if (candidates.length === 0)
    return {
      registry,
      reason: 'it claims no agentId and no identity registered here names it',
      reputation: [],
    }
  let reason = ''
  for (const candidate of candidates) {
    if (!/^\d{1,78}$/.test(candidate)) {
      reason = `agentId ${candidate} is not an integer`
      continue
    }
    const wallet = await agentWalletOf(chain, registry, BigInt(candidate))
    if (wallet?.toLowerCase() === intent.to.toLowerCase()) {
      const reputation = await Promise.all(queries.map((query) => summaryOf(chain, BigInt(candidate), query)))
      return { agentId: candidate, registry, reason: `agent #${candidate}`, reputation }
    }
    reason = wallet
      ? `agent #${candidate}'s agentWallet is ${wallet}`
      : `agent #${candidate} is not registered`
  }
  return { registry, reason, reputation: [] }
}

async function knownAgentIds(
  ctx: Pick<AgentWalletContext, 'storage'>,
  chain: ChainHandle,
  payee: Address,
): Promise<string[]> {
  const identities = await ctx.storage.query('identities', {
    where: { walletAddress: payee },
  })
  return identities.flatMap((identity) =>
    identity.chainId === chain.chainId && identity.agentId !== undefined ? [identity.agentId] : [],
  )
}

/**
 * The agent's registered wallet; undefined for an agent that does not exist (the registry reverts).
 * Any other failure is the node's, not an answer: `chain_unavailable`.
 */
async function agentWalletOf(
  chain: ChainHandle,
  registry: Address,
  agentId: bigint,
): Promise<Address | undefined> {
  return chain.client
    .readContract({
      address: registry,
      abi: identityRegistryAbi,
      functionName: 'getAgentWallet',
      args: [agentId],
    })
    .catch((error: unknown) => {
      // A revert is "no such agent"; a node that did not answer says nothing of the payee.
      if (isRevert(error)) return undefined
      throw toChainError(error, chain.name, { read: true })
    })
}

async function summaryOf(
  chain: ChainHandle,
  agentId: bigint,
  query: ReputationQuery,
): Promise<CounterpartyFacts['reputation'][number]> {
  const registry = chain.contracts.erc8004?.reputationRegistry
  if (!registry) return { query, error: `chain ${chain.name} has no ERC-8004 Reputation Registry` }
  try {
    const [count, value, decimals] = await chain.client.readContract({
      address: registry,
      abi: reputationRegistryAbi,
      functionName: 'getSummary',
      args: [agentId, [...query.reviewers], query.tag1, query.tag2],
    })
    return { query, summary: { count, value, decimals } }
  } catch (error) {
    // The registry refused the query (it reverts, e.g. for no reviewers): an unknown reputation the
    // engine never passes. A node that did not answer is no fact at all.
    if (!isRevert(error)) throw toChainError(error, chain.name, { read: true })
    return { query, error: 'getSummary reverted' }
  }
}

import type { Address } from 'viem'
import { recordAudit } from '../audit/recordAudit.js'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { venuesOf } from '../policy/evaluateIntent.js'
import { scopedRules } from '../policy/policyStore.js'
import { policyRuleSchema, type RulesEngineRule } from '../policy/ruleSchemas.js'
import { accountAbstractionOf } from '../smartAccounts/accountAbstractionOf.js'
import { delegationHash } from '../smartAccounts/delegationHash.js'
import { type OffChainRule, permissionsFromRules } from '../smartAccounts/permissionsFromRules.js'
import { sessionDelegations } from '../smartAccounts/sessionDelegations.js'
import { signDelegation } from '../smartAccounts/signDelegation.js'
import { withNativeFloor } from '../smartAccounts/withNativeFloor.js'
import { nativeFloorOf } from './nativeFloorOf.js'
import { delegationsOf, type SessionGrant } from './storedSession.js'

/** How long a session key's delegations stay redeemable; re-issued before (any rules change re-issues). */
export const sessionLifetimeMs = 30 * 24 * 60 * 60 * 1000

/**
 * A session key's grant for a smart wallet: the wallet's rules (tenant's and its own) compiled into
 * on-chain permissions where the enforcers can express them (`permissionsFromRules`), put in
 * delegations from the wallet to the session account, and signed by the owner key from the vault.
 * Rules the chain cannot hold are listed as judged off chain only. Rules that bound no native value on
 * chain (none set yet) get the default rules' native bounds (`nativeFloorOf`): no grant is uncapped.
 * Each grant has its own salt, so a
 * re-issued one never shares a hash (or an enforcer's spent amounts) with the one before.
 * @example const grant = await issueSessionGrant(ctx, chain, { tenantId, walletId, wallet, owner, sessionKey })
 */
export async function issueSessionGrant(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  target: { tenantId: string; walletId: string; wallet: Address; owner: Address; sessionKey: Address },
): Promise<SessionGrant> {
  const contracts = accountAbstractionOf(chain)
  const scoped = await scopedRules(ctx, target.tenantId, target.walletId)
  const rules: RulesEngineRule[] = []
  const unreadable: OffChainRule[] = []
  for (const { rule } of scoped) {
    const parsed = policyRuleSchema.safeParse(rule)
    if (parsed.success) rules.push(parsed.data)
    else unreadable.push({ ruleId: rule.id, type: rule.type, reason: 'not a rule of the built-in engine' })
  }
  const issuedAt = ctx.now()
  // Never uncapped: rules that bound no native value on chain (none yet) take the defaults' bounds.
  const { permissions, offChainOnly, floored } = withNativeFloor(
    permissionsFromRules(rules, {
      expiresAt: Math.floor((issuedAt.getTime() + sessionLifetimeMs) / 1000),
      tokens: chain.contracts.tokens ?? [],
      venues: venuesOf(chain),
      nativeDecimals: chain.nativeDecimals,
    }),
    nativeFloorOf(ctx, chain),
  )
  const block = await chain.client.getBlock().catch((error: unknown) => {
    throw toChainError(error, chain.name, { read: true })
  })
  const unsigned = sessionDelegations(contracts.enforcers, {
    wallet: target.wallet,
    session: target.sessionKey,
    permissions,
    startsAt: Number(block.timestamp),
    salt: BigInt(issuedAt.getTime()),
  })
  const owner = await ctx.vault.getSigner(target.owner)
  const domain = { chainId: chain.chainId, delegationManager: contracts.delegationManager }
  const delegations = {
    calls: unsigned.calls && (await signDelegation(owner, unsigned.calls, domain)),
    transfers: await Promise.all(
      unsigned.transfers.map(async ({ token, delegation }) => ({
        token,
        delegation: await signDelegation(owner, delegation, domain),
      })),
    ),
  }
  // The grant is saved with its wallet later (or never, if that fails): its signatures are recorded
  // now, in a commit of their own, before the grant can be used.
  await recordAudit(ctx, target.tenantId, {
    kind: 'vault.signature',
    subjects: { walletId: target.walletId, keyId: target.owner },
    payload: {
      signed: 'delegations',
      delegationHashes: delegationsOf(delegations).map(delegationHash),
      delegate: target.sessionKey,
      delegationManager: contracts.delegationManager,
      chainId: chain.chainId,
    },
  })
  return {
    delegations,
    permissions,
    offChainOnly: [...offChainOnly, ...unreadable],
    issuedAt,
    ...(floored ? { nativeFromDefaults: true } : {}),
  }
}

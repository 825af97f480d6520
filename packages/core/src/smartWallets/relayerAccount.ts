import type { AgentWalletContext } from '../context.js'
import type { WalletRecord } from '../wallets/types.js'

/** The principal a relayer account is recorded as owned by: no agent sees it; the tenant's admins do. */
export const relayerOwnerId = 'relayer'

/**
 * The tenant's relayer account: a vault key, recorded as a wallet of kind `relayer`, that submits
 * `handleOps` for the tenant's user operations and is the beneficiary of the EntryPoint's refunds.
 * Made on first use; one per tenant serves every chain (its nonces are per chain). The operator funds
 * it (its address is in the tenant's wallet list); the EntryPoint refunds its gas from each op's prefund.
 * @example const relayer = await relayerAccount(ctx, principal.tenantId)
 */
export async function relayerAccount(ctx: AgentWalletContext, tenantId: string): Promise<WalletRecord> {
  const id = relayerWalletId(tenantId)
  const existing = await ctx.storage.get('wallets', id)
  if (existing) return existing
  // The key first: one left by a crash (or a lost race) before the record is harmless, nothing points at it.
  const prepared = await ctx.vault.prepareKey?.()
  const address = prepared?.address ?? (await ctx.vault.createKey())
  return ctx.storage.transaction([`relayer:${tenantId}`], async (tx) => {
    const raced = await tx.get('wallets', id)
    if (raced) return raced
    const record: WalletRecord = {
      id,
      tenantId,
      ownerId: relayerOwnerId,
      address,
      chain: ctx.chains.defaultChain,
      agentName: 'relayer',
      source: 'created',
      kind: 'relayer',
      createdAt: ctx.now().toISOString(),
    }
    await prepared?.save(tx)
    await tx.insert('wallets', record)
    return record
  })
}

/** The relayer's wallet id: one per tenant. */
export function relayerWalletId(tenantId: string): string {
  return `wal_relayer_${tenantId}`
}

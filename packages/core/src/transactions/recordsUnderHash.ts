import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { canSee } from '../wallets/findWallet.js'
import type { WalletRecord } from '../wallets/types.js'
import type { TransactionRecord } from './types.js'

/** The records stored under one tx hash that a principal may see, the tx's own apart from what it carried. */
export type RecordsUnderHash = {
  /** The intents the tx carried (smart wallets' user operations in its `handleOps`), oldest first. */
  carried: TransactionRecord[]
  /** The record that signed the tx itself (the tenant relayer's `contract_call`), if stored and visible. */
  carrier: TransactionRecord | undefined
}

/**
 * Every record under `hash` whose wallet the principal may see. A smart wallet's send takes the hash
 * of the relayer's `handleOps` that included its op, so one hash may name that tx's own record (the
 * one holding its signature: the carrier) and each intent it carried (several, for a bundle).
 * @example const { carried, carrier } = await recordsUnderHash(ctx, principal, hash)
 */
export async function recordsUnderHash(
  ctx: AgentWalletContext,
  principal: Principal,
  hash: string,
): Promise<RecordsUnderHash> {
  const records = await ctx.storage.query('transactions', {
    where: { hash: hash.toLowerCase() },
    orderBy: 'createdAt',
  })
  const wallets = new Map<string, Promise<WalletRecord | undefined>>()
  const walletOf = (id: string) => {
    if (!wallets.has(id)) wallets.set(id, ctx.storage.get('wallets', id))
    return wallets.get(id)!
  }
  const seen = await Promise.all(
    records.map(async (record) => {
      const wallet = await walletOf(record.walletId)
      return wallet && canSee(principal, wallet) ? record : undefined
    }),
  )
  const visible = seen.filter((record) => record !== undefined)
  // Only the tx's own record holds its signature; a carried intent signed no tx of its own.
  return {
    carried: visible.filter((record) => record.rawTx === undefined),
    carrier: visible.find((record) => record.rawTx !== undefined),
  }
}

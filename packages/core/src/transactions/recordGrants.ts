import type { AllowanceGrantRecord, AllowanceKind } from '../allowances/types.js'
import type { StoredEffect } from '../effects/types.js'
import type { StorageTx } from '../storage/types.js'
import type { TransactionRecord } from './types.js'

/**
 * Files each allowance or operator grant of an accepted intent (`allowance_grants`), in the intent's
 * own commit, so the wallet's standing grants can be listed and revoked later. A blocked intent
 * granted nothing.
 * @example await recordGrants(tx, saved)
 */
export async function recordGrants(tx: StorageTx, record: TransactionRecord): Promise<void> {
  if (record.status === 'blocked' || record.effects?.status !== 'known') return
  for (const effect of record.effects.effects) {
    if (effect.kind !== 'grant') continue
    const kind = allowanceKindOf(effect)
    const { tokenId, ...asset } = effect.asset
    const grant: AllowanceGrantRecord = {
      id: [record.walletId, record.chain, kind, asset.address, tokenId ?? '', effect.counterparty]
        .join(':')
        .toLowerCase(),
      tenantId: record.tenantId,
      walletId: record.walletId,
      chain: record.chain,
      kind,
      asset: kind === 'erc721_token' ? { ...asset, tokenId } : asset,
      spender: effect.counterparty,
      transactionId: record.id,
      grantedAt: record.createdAt,
    }
    await tx.put('allowance_grants', grant)
  }
}

/** The kind of permission a grant effect gives (an operator grant has no token id). */
export function allowanceKindOf(effect: Pick<StoredEffect, 'asset'>): AllowanceKind {
  const { standard, tokenId } = effect.asset
  if (standard === 'permit2') return 'permit2'
  if (standard === 'erc20' || standard === 'native') return 'erc20'
  if (standard === 'erc721' && tokenId !== undefined) return 'erc721_token'
  return 'operator'
}

import type { Address } from 'viem'
import type { z } from 'zod'
import { appendAudit } from '../audit/appendAudit.js'
import { chainInfoOf } from '../chain/chainInfoOf.js'
import type { AgentWalletContext } from '../context.js'
import { ConflictError } from '../errors/errors.js'
import { appendEvent } from '../events/appendEvent.js'
import { type IdempotencyOptions, withIdempotency } from '../idempotency/withIdempotency.js'
import type { Principal } from '../principals/types.js'
import type { PreparedKey } from '../vault/types.js'
import { toWallet, type Wallet, type WalletRecord } from './types.js'
import { walletKeysOf } from './walletKeysOf.js'
import type { createWalletSchema, importWalletSchema } from './walletSchemas.js'

/**
 * Creates a wallet with a new vault key, owned by the calling principal.
 * @example const { wallet } = await createWallet(ctx, principal, { agentName: 'trader' })
 */
export async function createWallet(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof createWalletSchema>,
  options: IdempotencyOptions = {},
): Promise<{ wallet: Wallet }> {
  return withIdempotency(ctx, principal, 'wallet.create', input, options, async () => {
    const { name: chain, family } = chainInfoOf(ctx.chains, input.chain ?? ctx.chains.defaultChain)
    const keys = walletKeysOf(ctx.vault, family)
    // Key and wallet in one commit where the vault stores in ours; else the key first (an orphan key
    // left by a crash between the two is harmless: no wallet points at it).
    const prepared = await keys.prepareKey?.()
    const address = prepared?.address ?? (await keys.createKey())
    return saveWallet(
      ctx,
      principal,
      { address, agentName: input.agentName, chain, source: 'created' },
      prepared,
    )
  })
}

/**
 * Imports an existing private key. Importing an address already managed here is a `conflict`
 * (in any tenant): one key, one wallet record, one nonce sequence.
 * @example const { wallet } = await importWallet(ctx, principal, { privateKey, agentName: 'ops' })
 */
export async function importWallet(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof importWalletSchema>,
  options: IdempotencyOptions = {},
): Promise<{ wallet: Wallet }> {
  return withIdempotency(ctx, principal, 'wallet.import', input, options, async () => {
    const { name: chain, family } = chainInfoOf(ctx.chains, input.chain ?? ctx.chains.defaultChain)
    const address = await walletKeysOf(ctx.vault, family).importKey(input.privateKey)
    return saveWallet(ctx, principal, { address, agentName: input.agentName, chain, source: 'imported' })
  })
}

/**
 * Saves a new wallet record owned by the principal, with its `wallet.created` event, in one commit
 * (and the vault key `key` when the vault stores in ours); an address already managed is a `conflict`.
 * @example await saveWallet(ctx, principal, { address, agentName, chain, source: 'created' })
 */
export async function saveWallet(
  ctx: AgentWalletContext,
  principal: Principal,
  fields: Pick<WalletRecord, 'address' | 'agentName' | 'chain' | 'source'> &
    Partial<Pick<WalletRecord, 'id' | 'kind' | 'smart'>>,
  key?: PreparedKey,
): Promise<{ wallet: Wallet }> {
  const record: WalletRecord = {
    id: ctx.newId('wal'),
    tenantId: principal.tenantId,
    ownerId: principal.id,
    createdAt: ctx.now().toISOString(),
    ...fields,
  }
  await ctx.storage.transaction([addressLockKey(record.address)], async (tx) => {
    const existing = await tx.count('wallets', { where: { address: record.address } })
    if (existing > 0) {
      throw new ConflictError('This address is already a managed wallet', {
        details: { address: record.address },
      })
    }
    await key?.save(tx)
    await tx.insert('wallets', record)
    appendEvent(ctx, tx, record.tenantId, 'wallet.created', {
      walletId: record.id,
      address: record.address,
      chain: record.chain,
      agentName: record.agentName,
    })
    appendAudit(ctx, tx, record.tenantId, {
      kind: record.source === 'imported' ? 'wallet.imported' : 'wallet.created',
      subjects: { walletId: record.id, keyId: record.address, apiKeyId: principal.id },
      payload: {
        address: record.address,
        chain: record.chain,
        agentName: record.agentName,
        by: principal.id,
      },
    })
  })
  return { wallet: toWallet(record) }
}

function addressLockKey(address: Address): string {
  return `wallet-address:${address.toLowerCase()}`
}

import type { Address } from 'viem'
import type { AgentWalletContext } from '../context.js'
import { ConflictError } from '../errors/errors.js'
import { appendEvent } from '../events/appendEvent.js'
import type { Principal } from '../principals/types.js'
import { parseInput } from '../schemas/parseInput.js'
import { toWallet, type Wallet, type WalletRecord } from './types.js'
import {
  type CreateWalletParameters,
  createWalletSchema,
  type ImportWalletParameters,
  importWalletSchema,
} from './walletSchemas.js'

/**
 * Creates a wallet with a new vault key, owned by the calling principal.
 * @example const wallet = await createWallet(ctx, principal, { agentName: 'trader' })
 */
export async function createWallet(
  ctx: AgentWalletContext,
  principal: Principal,
  parameters: CreateWalletParameters,
): Promise<Wallet> {
  const { agentName, chain } = parseInput(createWalletSchema, parameters)
  const chainName = ctx.chains.get(chain ?? ctx.chains.defaultChain).name
  const address = await ctx.vault.createKey()
  return saveWallet(ctx, principal, { address, agentName, chain: chainName, source: 'created' })
}

/**
 * Imports an existing private key. Importing an address already managed here is a `conflict`
 * (in any tenant): one key, one wallet record, one nonce sequence.
 * @example await importWallet(ctx, principal, { privateKey, agentName: 'ops' })
 */
export async function importWallet(
  ctx: AgentWalletContext,
  principal: Principal,
  parameters: ImportWalletParameters,
): Promise<Wallet> {
  const { privateKey, agentName, chain } = parseInput(importWalletSchema, parameters)
  const chainName = ctx.chains.get(chain ?? ctx.chains.defaultChain).name
  const address = await ctx.vault.importKey(privateKey)
  return saveWallet(ctx, principal, { address, agentName, chain: chainName, source: 'imported' })
}

async function saveWallet(
  ctx: AgentWalletContext,
  principal: Principal,
  fields: Pick<WalletRecord, 'address' | 'agentName' | 'chain' | 'source'>,
): Promise<Wallet> {
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
    await tx.insert('wallets', record)
    appendEvent(ctx, tx, record.tenantId, 'wallet.created', {
      walletId: record.id,
      address: record.address,
      chain: record.chain,
      agentName: record.agentName,
    })
  })
  return toWallet(record)
}

function addressLockKey(address: Address): string {
  return `wallet-address:${address.toLowerCase()}`
}

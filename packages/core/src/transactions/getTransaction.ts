import { z } from 'zod'
import { toChainError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import { NotFoundError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { parseInput } from '../schemas/parseInput.js'
import { canSee } from '../wallets/findWallet.js'
import type { WalletRecord } from '../wallets/types.js'
import { type TransactionView, toTransactionView } from './toTransactionView.js'
import type { TransactionRecord } from './types.js'

const txHashSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'Transaction hash must be 0x followed by 64 hex characters')
const idSchema = z.string().regex(/^tx_[0-9a-zA-Z_-]{1,64}$/, 'Transaction id must look like tx_…')

export type GetTransactionReturnType = TransactionView & { confirmations: number }

/**
 * A transaction by hash (or by id `tx_…`) with its block number, confirmations and explorer link.
 * @example const tx = await getTransaction(ctx, principal, hash)
 */
export async function getTransaction(
  ctx: AgentWalletContext,
  principal: Principal,
  hashOrId: string,
  options: { chain?: string | undefined } = {},
): Promise<GetTransactionReturnType> {
  // A named chain must be configured, and the transaction must be on it (hashes are per chain).
  const expected = options.chain === undefined ? undefined : ctx.chains.get(options.chain).name
  const record = await findTransaction(ctx, principal, hashOrId)
  if (expected !== undefined && record.chain !== expected) {
    throw new NotFoundError('Transaction', { details: { hash: hashOrId, chain: expected } })
  }
  const chain = ctx.chains.get(record.chain)
  let confirmations = 0
  if (record.blockNumber !== undefined) {
    const head = await chain.client.getBlockNumber().catch((error: unknown) => {
      throw toChainError(error, chain.name)
    })
    confirmations = Number(head) - record.blockNumber + 1
  }
  return { ...toTransactionView(record, chain.explorerUrl), confirmations }
}

/** The stored transaction, if the principal may see its wallet; else `not_found`. */
export async function findTransaction(
  ctx: AgentWalletContext,
  principal: Principal,
  hashOrId: string,
): Promise<TransactionRecord> {
  const byId = hashOrId.startsWith('tx_')
  const key = byId ? parseInput(idSchema, hashOrId) : parseInput(txHashSchema, hashOrId).toLowerCase()
  const record = byId
    ? await ctx.storage.get<TransactionRecord>('transactions', key)
    : (await ctx.storage.query<TransactionRecord>('transactions', { where: { hash: key }, limit: 1 }))[0]
  const wallet = record && (await ctx.storage.get<WalletRecord>('wallets', record.walletId))
  if (!record || !wallet || !canSee(principal, wallet))
    throw new NotFoundError('Transaction', { details: { hash: hashOrId } })
  return record
}

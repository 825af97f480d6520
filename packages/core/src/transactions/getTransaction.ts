import { BlockNotFoundError } from 'viem'
import { z } from 'zod'
import { chainInfoOf } from '../chain/chainInfoOf.js'
import { toChainError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import { NotFoundError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { parseInput } from '../schemas/parseInput.js'
import { canSee } from '../wallets/findWallet.js'
import { hashLinksOf } from './hashLinksOf.js'
import { recordsUnderHash } from './recordsUnderHash.js'
import { toTransactionView } from './toTransactionView.js'
import type { GetTransactionReturnType, getTransactionSchema, HashLinks } from './transactionSchemas.js'
import type { TransactionRecord } from './types.js'

const txHashSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'Transaction hash must be 0x followed by 64 hex characters')
const idSchema = z.string().regex(/^tx_[0-9a-zA-Z_-]{1,64}$/, 'Transaction id must look like tx_…')

/**
 * A transaction by hash (or by id `tx_…`) with its block number, confirmations and explorer link.
 * @example const { status } = await getTransaction(ctx, principal, { transaction: hash })
 */
export async function getTransaction(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof getTransactionSchema>,
): Promise<GetTransactionReturnType> {
  const record = await findRequestedTransaction(ctx, principal, input)
  return transactionAnswer(ctx, record, await hashLinksOf(ctx, principal, record))
}

/**
 * The transaction a `{ transaction, chain? }` input names: a named chain must be configured, and the
 * transaction must be on it (hashes are per chain); else `not_found`.
 * @example const record = await findRequestedTransaction(ctx, principal, { transaction: hash })
 */
export async function findRequestedTransaction(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof getTransactionSchema>,
): Promise<TransactionRecord> {
  const expected = input.chain === undefined ? undefined : ctx.chains.get(input.chain).name
  const record = await findTransaction(ctx, principal, input.transaction)
  if (expected !== undefined && record.chain !== expected) {
    throw new NotFoundError('Transaction', { details: { hash: input.transaction, chain: expected } })
  }
  return record
}

/**
 * The answer about a stored transaction: its view, with confirmations read from the chain's head
 * (none when its block is no longer on the canonical chain).
 * @example return transactionAnswer(ctx, record)
 */
export async function transactionAnswer(
  ctx: AgentWalletContext,
  record: TransactionRecord,
  links: HashLinks = {},
): Promise<GetTransactionReturnType> {
  // Its chain's facts, of either family; a block's confirmations are read on an EVM chain (a Solana
  // record has no block number: its finality is the chain's commitment).
  const info = chainInfoOf(ctx.chains, record.chain)
  let confirmations = 0
  if (record.blockNumber !== undefined) {
    const chain = ctx.chains.get(record.chain)
    const blockNumber = record.blockNumber
    // Counted on the canonical chain only: a block not final yet is read again, and one that left
    // the chain (a reorg the tracker has not moved back to `submitted` yet) counts none.
    const unsettled = record.finality !== 'finalized' && record.blockHash !== undefined
    const [head, canonical] = await Promise.all([
      // Uncached: viem keeps the head for a polling interval, and a stale head undercounts.
      chain.client.getBlockNumber({ cacheTime: 0 }),
      unsettled
        ? chain.client.getBlock({ blockNumber: BigInt(blockNumber) }).then(
            (block) => block.hash,
            (error: unknown) => {
              if (error instanceof BlockNotFoundError) return null
              throw error
            },
          )
        : record.blockHash,
    ]).catch((error: unknown) => {
      throw toChainError(error, chain.name, { read: true })
    })
    confirmations = canonical === record.blockHash ? Number(head) - blockNumber + 1 : 0
  }
  const transaction = { ...toTransactionView(record, info.explorerUrl), confirmations, ...links }
  const { hash, status, blockNumber, explorer } = transaction
  return { hash, status, blockNumber, explorer, confirmations, transaction }
}

/**
 * The stored transaction, if the principal may see its wallet; else `not_found`. By hash, the intent
 * the tx carried (a smart wallet's send, the oldest of a bundle's the principal may see) before the
 * carrier's own record (the relayer's `handleOps`), which shares its hash.
 */
export async function findTransaction(
  ctx: AgentWalletContext,
  principal: Principal,
  hashOrId: string,
): Promise<TransactionRecord> {
  const byId = hashOrId.startsWith('tx_')
  const key = byId ? parseInput(idSchema, hashOrId) : parseInput(txHashSchema, hashOrId).toLowerCase()
  if (!byId) {
    const { carried, carrier } = await recordsUnderHash(ctx, principal, key)
    const record = carried[0] ?? carrier
    if (!record) throw new NotFoundError('Transaction', { details: { hash: hashOrId } })
    return record
  }
  const record = await ctx.storage.get('transactions', key)
  const wallet = record && (await ctx.storage.get('wallets', record.walletId))
  if (!record || !wallet || !canSee(principal, wallet))
    throw new NotFoundError('Transaction', { details: { hash: hashOrId } })
  return record
}

import { keccak256 } from 'viem'
import { isTransportError, toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { allocateNonce } from './allocateNonce.js'
import type { GasSettings } from './prepareGas.js'
import { markFailed, markSubmitted } from './transitions.js'
import type { TransactionRecord } from './types.js'

/**
 * queued → signed → submitted. Allocates the nonce, signs through the vault, persists the raw tx,
 * its hash and the nonce together, and only then broadcasts: a crash after the commit leaves a tx
 * the reconciler rebroadcasts as is, never one signed again with another nonce.
 * The caller holds the wallet lock.
 */
export async function signAndBroadcast(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: TransactionRecord,
  gas: GasSettings,
): Promise<TransactionRecord> {
  const { nonceId, nonce } = await allocateNonce(ctx, chain, record.from)
  const signer = await ctx.vault.getSigner(record.from)
  const rawTx = await signer.signTransaction({
    type: 'eip1559',
    chainId: chain.chainId,
    nonce,
    to: record.call.to,
    value: BigInt(record.call.value),
    data: record.call.data,
    gas: BigInt(gas.limit),
    maxFeePerGas: BigInt(gas.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(gas.maxPriorityFeePerGas),
  })
  const signed: TransactionRecord = {
    ...record,
    nonce,
    gas,
    rawTx,
    hash: keccak256(rawTx),
    updatedAt: ctx.now().toISOString(),
  }
  await ctx.storage.transaction([], async (tx) => {
    await tx.put('transactions', signed)
    await tx.put('nonces', { id: nonceId, next: nonce + 1 })
  })
  return broadcastSigned(ctx, chain, signed, { releaseNonce: { nonceId } })
}

/**
 * Sends a persisted raw tx. A transport failure leaves it signed for the tracker to retry; an
 * answer from the node that it does not know the tx fails it (and, for the newest nonce, frees it).
 */
export async function broadcastSigned(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  record: TransactionRecord,
  options: { releaseNonce?: { nonceId: string } | undefined } = {},
): Promise<TransactionRecord> {
  if (!record.rawTx || !record.hash) throw new Error('broadcastSigned needs a signed transaction')
  try {
    await chain.client.sendRawTransaction({ serializedTransaction: record.rawTx })
    return await markSubmitted(ctx, record)
  } catch (error) {
    if (isTransportError(error)) return record
    // "Already known" and "nonce too low" for our own mined tx are both fine: ask the node.
    const known = await chain.client.getTransaction({ hash: record.hash }).then(
      () => true,
      () => false,
    )
    if (known) return markSubmitted(ctx, record)
    return markFailed(ctx, record, toChainError(error, chain.name), options)
  }
}

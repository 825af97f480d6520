import { keccak256 } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { maxOf } from '../utils/amounts.js'
import type { SignedQueuedTransaction, SubmittedTransaction } from './types.js'

/** What a plain transfer to an account without code costs, exactly. */
const transferGas = 21_000n

/**
 * A signed zero-value transfer from the wallet to itself at `failed`'s nonce. A tx the node refused
 * leaves its nonce a hole below the wallet's later signed txs, and no node mines past a hole: the
 * filler takes it, so those can be mined as signed (never signed again: some may be with a node
 * already). Priced at the higher of the chain's fees now and the refused tx's. Undefined when the
 * node already counts that nonce (a tx from elsewhere took it: there is no hole).
 * The caller holds the wallet lock and saves the filler with the failure, then broadcasts it.
 * @example const filler = await nonceFiller(ctx, chain, failed)
 */
export async function nonceFiller(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  failed: SignedQueuedTransaction | SubmittedTransaction,
): Promise<SignedQueuedTransaction | undefined> {
  const { nonce } = failed
  const [pending, market] = await Promise.all([
    chain.client.getTransactionCount({ address: failed.from, blockTag: 'pending' }),
    chain.client.estimateFeesPerGas(),
  ])
  if (pending > nonce) return undefined
  const maxFeePerGas = maxOf(market.maxFeePerGas, BigInt(failed.gas.maxFeePerGas))
  const maxPriorityFeePerGas = maxOf(market.maxPriorityFeePerGas, BigInt(failed.gas.maxPriorityFeePerGas))
  const signer = await ctx.vault.getSigner(failed.from)
  const rawTx = await signer.signTransaction({
    type: 'eip1559',
    chainId: chain.chainId,
    nonce,
    to: failed.from,
    value: 0n,
    gas: transferGas,
    maxFeePerGas,
    maxPriorityFeePerGas,
  })
  const now = ctx.now().toISOString()
  return {
    id: ctx.newId('tx'),
    tenantId: failed.tenantId,
    walletId: failed.walletId,
    requestedBy: failed.requestedBy,
    chain: failed.chain,
    chainId: failed.chainId,
    kind: 'transfer',
    from: failed.from,
    to: failed.from,
    asset: { address: 'native', symbol: chain.nativeSymbol, decimals: chain.nativeDecimals },
    amount: '0',
    call: { to: failed.from, value: '0' },
    status: 'queued',
    policy: {
      decision: 'allow',
      reason: `Fills nonce ${nonce}, left by the refused ${failed.id}, so the wallet's later transactions can be mined`,
    },
    meta: { fillsNonceOf: failed.id },
    nonce,
    gas: {
      limit: transferGas.toString(),
      maxFeePerGas: maxFeePerGas.toString(),
      maxPriorityFeePerGas: maxPriorityFeePerGas.toString(),
    },
    rawTx,
    hash: keccak256(rawTx),
    createdAt: now,
    updatedAt: now,
  }
}

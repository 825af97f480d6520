import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import type { StorageTx } from '../storage/types.js'
import { commitIntent } from '../transactions/commitIntent.js'
import { prepareGas } from '../transactions/prepareGas.js'
import type {
  TransactionRecord,
  UnpausedTransaction,
  UnsignedQueuedTransaction,
} from '../transactions/types.js'
import type { WalletRecord } from '../wallets/types.js'

/**
 * Has the relayer send `call` as a transaction of its own, through the send machinery: gas and the
 * relayer's funds checked (`insufficient_funds` when the operator has not funded it), then nonce,
 * signature and record in one commit with what the caller saves beside it (`alongside`), then the
 * broadcast in the relayer's lane — awaited by the caller outside the lock. The caller holds the
 * relayer's wallet lock. Its `tx.*` events are the relayer's (its wallet id).
 * @example const { sending } = await relayCall(ctx, chain, relayer, { to: entryPoint, value: '0', data }, { meta })
 */
export async function relayCall(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  relayer: WalletRecord,
  call: TransactionRecord['call'],
  options: {
    meta: Record<string, unknown>
    alongside?: ((tx: StorageTx, saved: TransactionRecord) => Promise<void>) | undefined
  },
): Promise<{ record: TransactionRecord; sending: Promise<UnpausedTransaction> | undefined }> {
  const now = ctx.now().toISOString()
  const record: UnsignedQueuedTransaction = {
    id: ctx.newId('tx'),
    tenantId: relayer.tenantId,
    walletId: relayer.id,
    requestedBy: relayer.ownerId,
    chain: chain.name,
    chainId: chain.chainId,
    kind: 'contract_call',
    from: relayer.address,
    to: call.to,
    asset: { address: 'native', symbol: chain.nativeSymbol, decimals: chain.nativeDecimals },
    amount: call.value,
    call,
    policy: { decision: 'allow', reason: 'The relayer’s own call for a smart wallet' },
    meta: options.meta,
    status: 'queued',
    createdAt: now,
    updatedAt: now,
  }
  const gas = await prepareGas(chain, relayer.address, call)
  const { record: saved, sending } = await commitIntent(ctx, chain, record, gas, {
    write: 'insert',
    alongside: options.alongside,
  })
  return { record: saved, sending }
}

import type { Address, Hex } from 'viem'
import { getUserOperationHash, type UserOperationReceipt } from 'viem/account-abstraction'
import type { Bundler, SignedUserOperation } from '../bundler/types.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { walletLockKey, withLock } from '../storage/withLock.js'
import { isMined, type UnpausedTransaction } from '../transactions/types.js'
import type { WalletRecord } from '../wallets/types.js'
import { estimateUserOperationGas } from './estimateUserOperationGas.js'
import { relayCall } from './relayCall.js'
import { relayerAccount } from './relayerAccount.js'
import { handleOpsData, simulateHandleOps } from './simulateHandleOps.js'
import { type UserOperationRecord, userOperationRecordId } from './types.js'
import { userOperationReceiptOf } from './userOperationReceiptOf.js'

/**
 * The default Bundler: the tenant's relayer account (`relayerAccount`) submits `handleOps([op])`
 * itself, after the EntryPoint's own validation by `eth_call` (`simulateHandleOps`). The transaction
 * goes through the wallet machinery as any send does — nonce, signature and the op's record in one
 * commit, then the broadcast lane, the tracker's rebroadcasts, replacements and reorg checks — so an
 * op taken once is carried by exactly one transaction across crashes, and the same op sent again
 * answers its hash without a second one (unless its carrier failed: then a new one carries it).
 * @example const bundler = relayerBundler(ctx, { tenantId, chain: 'devnet' })
 */
export function relayerBundler(
  ctx: AgentWalletContext,
  { tenantId, chain: chainName }: { tenantId: string; chain: string },
): Bundler {
  const chain = ctx.chains.get(chainName)
  return {
    name: 'relayer',
    async sendUserOperation(op, entryPoint) {
      const hash = getUserOperationHash({
        chainId: chain.chainId,
        entryPointAddress: entryPoint,
        entryPointVersion: '0.8',
        userOperation: op,
      })
      const relayer = await relayerAccount(ctx, tenantId)
      const taken = await withLock(ctx.storage, [walletLockKey(relayer.address)], () =>
        submitOnce(ctx, chain, relayer, { op, hash, entryPoint }),
      )
      // Outside the lock, as every send: the relayer's next op is taken while this one goes out, and a
      // refusal, worked out under the relayer's lock (`broadcastInLane`), does not wait on this one.
      await taken?.sending
      return hash
    },
    async getUserOperationReceipt(hash) {
      return receiptOf(ctx, chain, hash)
    },
    estimateUserOperationGas(op, entryPoint) {
      return estimateUserOperationGas(chain, op, entryPoint)
    },
  }
}

type Taken = { op: SignedUserOperation; hash: Hex; entryPoint: Address }

/**
 * Under the relayer's lock: the op's carrier if one is live, else a new one signed and committed.
 * Its broadcast comes back wrapped (`{ sending }`): a promise returned bare from an async function is
 * adopted, and the lock would be held until the node answered.
 */
async function submitOnce(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  relayer: WalletRecord,
  { op, hash, entryPoint }: Taken,
): Promise<{ sending: Promise<UnpausedTransaction> | undefined } | undefined> {
  const id = userOperationRecordId(chain.chainId, hash)
  const known = await ctx.storage.get('user_operations', id)
  const carrier = known && (await ctx.storage.get('transactions', known.transactionId))
  if (carrier && carrier.status !== 'failed') return undefined
  await simulateHandleOps(chain, relayer.address, op, entryPoint)
  const call = { to: entryPoint, value: '0', data: handleOpsData(op, relayer.address) }
  const { sending } = await relayCall(ctx, chain, relayer, call, {
    meta: { userOpHash: hash, sender: op.sender },
    alongside: async (tx, saved) => {
      const record: UserOperationRecord = {
        id,
        tenantId: relayer.tenantId,
        chain: chain.name,
        hash,
        entryPoint,
        sender: op.sender,
        nonce: op.nonce.toString(),
        transactionId: saved.id,
        createdAt: known?.createdAt ?? saved.createdAt,
      }
      await tx.put('user_operations', record)
    },
  })
  return { sending }
}

/** The op's receipt once its carrier is mined with it; undefined while pending, or unknown here. */
async function receiptOf(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  hash: Hex,
): Promise<UserOperationReceipt | undefined> {
  const known = await ctx.storage.get('user_operations', userOperationRecordId(chain.chainId, hash))
  if (!known) return undefined
  const carrier = await ctx.storage.get('transactions', known.transactionId)
  if (!carrier || !isMined(carrier)) return undefined
  const receipt = await chain.client.getTransactionReceipt({ hash: carrier.hash })
  return userOperationReceiptOf(receipt, hash, known.entryPoint)
}

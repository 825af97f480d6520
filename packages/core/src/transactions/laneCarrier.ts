import { effectsAhead } from '../policy/effectsAhead.js'
import type { StorageTx } from '../storage/types.js'
import { allocateNonce } from './allocateNonce.js'
import { broadcastLanes } from './broadcastLane.js'
import type { Carrier } from './carrier.js'
import { laneRetries } from './laneRetries.js'
import { estimateAhead, prepareGas, tokenSpendOf } from './prepareGas.js'
import { saveJudged } from './saveJudged.js'
import { sendReorgedAgain } from './sendReorgedAgain.js'
import { saveSigned, signRecord } from './signAndBroadcast.js'
import { trackLane } from './trackLane.js'

/**
 * The wallet's own broadcast lane (an EOA's, an upgraded account's owner key): the intent is signed
 * as a tx with the wallet's next nonce and committed with it (one fsync), then broadcast in the
 * wallet's lane, in nonce order (`broadcastLanes`); the tracker follows its receipt, resends it,
 * replaces it when stuck, and sends it again after a reorg. The lanes are the context's own.
 * @example const ctx = { ...rest, carriers: { lane: laneCarrier(), user_operation, payee } }
 */
export function laneCarrier(): Carrier {
  const lanes = broadcastLanes()
  // What a pass could not do (a broadcast, a nonce re-derivation): the next one does it first.
  const retries = laneRetries()
  return {
    name: 'lane',
    batches: false,
    chainOf: (chains, name) => chains.get(name),
    effects: (_ctx, chain, wallet, draft) => effectsAhead(chain, wallet.address, draft),
    // The gas estimate needs no lock: it runs while the send waits for the wallet's.
    ahead: async (_ctx, chain, wallet, draft) => ({
      estimate: estimateAhead(chain, wallet.address, {
        to: draft.call.to,
        value: draft.call.value.toString(),
        data: draft.call.data,
      }),
    }),
    async fund(ctx, chain, wallet, intent, { allow, ahead, reader }) {
      // Both only read, under the caller's lock: the nonce need not wait for the balances.
      const allocated = allow ? allocateNonce(ctx, chain, wallet.address, reader) : undefined
      allocated?.catch(() => undefined) // awaited by `commit`, or dropped with the funds' error
      const gas = await prepareGas(chain, wallet.address, intent.call, tokenSpendOf(intent), {
        estimate: ahead?.estimate,
        inFlight: lanes.inFlight(chain.chainId, wallet.address),
      })
      return { gas, allocated }
    },
    async commit(ctx, chain, record, gas, options) {
      // No gas (never from `fund`): saved unsigned, for the tracker to sign.
      if (!gas) {
        await saveJudged(ctx, record, options)
        return { record }
      }
      // Signed first, so intent, raw tx and nonce are durable together.
      const signing = await signRecord(ctx, chain, record, gas, options.allocated)
      const save = async (tx: StorageTx) => {
        await saveSigned(ctx, tx, signing, options.write)
        await options.alongside?.(tx, signing.signed)
      }
      // Unsynced, the lock can go before the sync: the broadcast waits for it in the lane.
      let synced: Promise<void> | undefined
      if (options.unsynced) ({ synced } = await options.unsynced.commit(save))
      else await ctx.storage.transaction([], save)
      return { record: signing.signed, sending: lanes.enqueue(ctx, chain, signing, synced) }
    },
    track: (ctx, pass) => trackLane(ctx, pass, retries),
    reorged: (ctx, chain, records) => sendReorgedAgain(ctx, chain, records, retries),
    settle: () => lanes.settle(),
  }
}

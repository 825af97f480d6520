import { effectsAhead } from '../policy/effectsAhead.js'
import { userOperationLockKey, withLock } from '../storage/withLock.js'
import type { Carrier } from '../transactions/carrier.js'
import { requireNativeFunds, requireTokenFunds, tokenSpendOf } from '../transactions/prepareGas.js'
import { saveJudged } from '../transactions/saveJudged.js'
import { isMinedUserOperation } from '../transactions/types.js'
import { stillAsWatched } from '../transactions/watchMined.js'
import { bundlerOf, carryUserOperation } from './carryUserOperation.js'
import { fundSession } from './fundSession.js'
import { trackUserOperations } from './trackUserOperations.js'
import { writeUserOperationReorged } from './userOperationTransitions.js'

/**
 * A smart wallet's intent carried by a user operation of its session account, through the tenant's
 * bundler (the relayer by default): no nonce or gas of the wallet's own; saved, then the op is
 * sponsored or paid from the session's deposit, signed, saved on the record and handed to the bundler
 * (`carryUserOperation`). The tracker reads the op's receipt and hands the same op again when
 * stale; a reorged op goes back to `submitted` and the relayer's own lane sends its carrier tx again.
 * @example const ctx = { ...rest, carriers: { lane, user_operation: userOperationCarrier, payee } }
 */
export const userOperationCarrier: Carrier = {
  name: 'user_operation',
  batches: true,
  chainOf: (chains, name) => chains.get(name),
  effects: (_ctx, chain, wallet, draft) => effectsAhead(chain, wallet.address, draft),
  async ahead(ctx, chain, wallet, draft) {
    // A batch is simulated through the wallet's own code: a smart wallet never used is deployed first,
    // as its first op would be (the owner's op, paid from the wallet's ETH; gas, not an effect judged).
    const smart = wallet.smart
    if (draft.calls && smart) {
      const bundler = bundlerOf(ctx, { tenantId: wallet.tenantId, chain: chain.name })
      await withLock(ctx.storage, [userOperationLockKey(wallet.id)], () =>
        fundSession(ctx, chain, wallet, smart, bundler),
      )
    }
    return {}
  },
  async fund(_ctx, chain, wallet, intent) {
    // The wallet pays the value and any token itself; the op's gas goes through its session account's deposit.
    const spend = tokenSpendOf(intent)
    if (spend) await requireTokenFunds(chain, wallet.address, spend)
    await requireNativeFunds(chain, wallet.address, BigInt(intent.call.value))
    return { gas: undefined }
  },
  async commit(ctx, chain, record, _gas, options) {
    await saveJudged(ctx, record, options)
    // Signed and handed on outside the wallet lock.
    return { record, sending: carryUserOperation(ctx, chain, record) }
  },
  track: (ctx, pass) => trackUserOperations(ctx, pass),
  async reorged(ctx, _chain, records) {
    const included = records.filter(isMinedUserOperation)
    if (included.length === 0) return
    await ctx.storage.transaction([], async (tx) => {
      for (const record of included)
        if (await stillAsWatched(tx, record)) await writeUserOperationReorged(ctx, tx, record)
    })
  },
  settle: async () => undefined,
}

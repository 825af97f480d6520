import { effectsAhead } from '../policy/effectsAhead.js'
import type { Carrier } from '../transactions/carrier.js'
import { requireTokenFunds, tokenSpendOf } from '../transactions/prepareGas.js'
import { saveJudged } from '../transactions/saveJudged.js'
import { trackAuthorizations } from './trackAuthorizations.js'

/**
 * An x402 payment: settled by its payee from the wallet's signed EIP-3009 authorization (or its
 * EIP-1271 one for a smart wallet), never signed here as a tx. Accepted, it is saved and reserved;
 * its caller signs the authorization and sends the request again, outside the wallet lock
 * (`settlePayment`). What became of the authorization is read from the chain by the tracker
 * (`trackAuthorizations`): used, cancelled or expired. It has no block of its own to reorg.
 * @example const ctx = { ...rest, carriers: { lane, user_operation, payee: payeeCarrier } }
 */
export const payeeCarrier: Carrier = {
  name: 'payee',
  batches: false,
  chainOf: (chains, name) => chains.get(name),
  effects: (_ctx, chain, wallet, draft) => effectsAhead(chain, wallet.address, draft),
  ahead: async () => ({}),
  async fund(_ctx, chain, wallet, intent) {
    // Only the token it authorizes: the payee pays the gas of settlement.
    const spend = tokenSpendOf(intent)
    if (spend) await requireTokenFunds(chain, wallet.address, spend)
    return { gas: undefined }
  },
  async commit(ctx, _chain, record, _gas, options) {
    await saveJudged(ctx, record, options)
    return { record }
  },
  track: (ctx, pass) => trackAuthorizations(ctx, { chains: pass.chains }),
  reorged: async () => undefined,
  settle: async () => undefined,
}

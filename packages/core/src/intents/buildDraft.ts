import { encodeFunctionData, erc20Abi, isAddress } from 'viem'
import { resolveAsset } from '../chain/resolveAsset.js'
import type { ChainHandle } from '../chain/types.js'
import { ValidationError } from '../errors/errors.js'
import type { SendInput } from '../transactions/sendSchema.js'
import { parseAmount } from '../utils/amounts.js'
import type { IntentDraft } from './types.js'

/**
 * Turns a validated send into an intent draft: amounts to base units (exact, never rounded),
 * an ERC-20 transfer into its calldata with the recipient as the policy's `to` and its one effect
 * (it sends `amount` to `to`: known without a node). A `data` send's effects are left to predict.
 */
export async function buildDraft(chain: ChainHandle, send: Omit<SendInput, 'wallet'>): Promise<IntentDraft> {
  // The schema takes either family's forms; an EVM send takes its own only.
  if (!isAddress(send.to, { strict: false })) {
    throw new ValidationError('An EVM send goes to an 0x address (0x followed by 40 hex characters)', {
      details: { to: send.to, chain: chain.name },
    })
  }
  if (send.token !== undefined && !isAddress(send.token, { strict: false })) {
    throw new ValidationError(
      'An EVM token is named by its contract address (0x followed by 40 hex characters)',
      {
        details: { token: send.token, chain: chain.name },
      },
    )
  }
  const asset = await resolveAsset(chain, send.token)
  const amount = parseAmount(send.value, asset.decimals)
  if (send.token) {
    return {
      kind: 'transfer',
      chain: chain.name,
      to: send.to,
      asset,
      amount,
      call: {
        to: send.token,
        value: 0n,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [send.to, amount] }),
      },
      effects: {
        status: 'known',
        source: 'decoded',
        effects: [{ kind: 'out', asset: { ...asset, standard: 'erc20' }, amount, counterparty: send.to }],
      },
    }
  }
  const isCall = send.data !== undefined && send.data !== '0x'
  return {
    kind: isCall ? 'contract_call' : 'transfer',
    chain: chain.name,
    to: send.to,
    asset,
    amount,
    call: { to: send.to, value: amount, data: send.data },
  }
}

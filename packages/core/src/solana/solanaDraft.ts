import type { Address } from 'viem'
import type { SolanaChainHandle } from '../chain/types.js'
import { ValidationError } from '../errors/errors.js'
import type { IntentAsset, IntentDraft } from '../intents/types.js'
import type { SendInput } from '../transactions/sendSchema.js'
import { parseAmount } from '../utils/amounts.js'

const evmAddress = /^0x[0-9a-fA-F]{40}$/

/**
 * A validated send from a Solana wallet as an intent draft: SOL (no `token`) or a mint of the
 * chain's address book, named by its mint or its symbol; amounts in base units (exact). Its effects
 * are left to predict (`solanaCarrier.effects`). An EVM recipient or token, or calldata, is
 * `validation_failed`.
 * @example const draft = solanaDraft(chain, { to, value: '0.5' })
 */
export function solanaDraft(chain: SolanaChainHandle, send: Omit<SendInput, 'wallet'>): IntentDraft {
  if (evmAddress.test(send.to)) {
    throw new ValidationError('A Solana wallet sends to a base58 address, not an EVM one', {
      details: { to: send.to, chain: chain.name },
    })
  }
  if (send.data !== undefined) {
    throw new ValidationError('A Solana send carries no calldata: send SOL or a token', {
      details: { chain: chain.name },
    })
  }
  const asset = solanaAssetOf(chain, send.token)
  const amount = parseAmount(send.value, asset.decimals)
  return {
    kind: 'transfer',
    chain: chain.name,
    to: send.to,
    asset,
    amount,
    call: { to: send.to, value: asset.address === 'native' ? amount : 0n },
  }
}

/** SOL, or the address book's mint named by its address or its symbol (any case): else `validation_failed`. */
function solanaAssetOf(chain: SolanaChainHandle, token: string | undefined): IntentAsset {
  if (token === undefined)
    return { address: 'native', symbol: chain.nativeSymbol, decimals: chain.nativeDecimals }
  const mint = chain.addressBook.mints?.find(
    (entry) => entry.address === token || entry.symbol.toLowerCase() === token.toLowerCase(),
  )
  if (!mint) {
    throw new ValidationError('Unknown token: not a mint this chain’s address book knows', {
      details: { token, chain: chain.name, known: (chain.addressBook.mints ?? []).map((m) => m.symbol) },
    })
  }
  return { address: mint.address as Address, symbol: mint.symbol, decimals: mint.decimals }
}

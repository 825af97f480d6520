import { type Address, decodeFunctionData, erc20Abi, type Hex } from 'viem'
import { resolveAsset } from '../chain/resolveAsset.js'
import type { ChainHandle } from '../chain/types.js'
import { BaseError } from '../errors/baseError.js'
import { ValidationError } from '../errors/errors.js'
import type { IntentDraft } from '../transactions/submitIntent.js'
import type { StoredSafeTx } from './safeTransaction.js'

/** What the policy engine judges of a Safe execution: who is paid, in what, how much, out of which Safe. */
export type SafeTxPayment = Pick<IntentDraft, 'to' | 'asset' | 'amount' | 'via'>

/**
 * What a SafeTx really spends, for the executing wallet's policy. A plain call with no data pays
 * `value` of the native coin to its `to`; an ERC-20 `transfer`, a `transferFrom` out of the Safe
 * and an `approve` (amount 0, the spender as counterparty) pay that token to its recipient. `via`
 * is then the Safe. Anything else (another call, a delegatecall, a token call carrying value, a
 * contract that is not an ERC-20 such as an ERC-721) is a call to the Safe for `value` of the native
 * coin, as it always was.
 * @example const { to, asset, amount, via } = await safeTxPayment(chain, safe, proposal.tx)
 */
export async function safeTxPayment(
  chain: ChainHandle,
  safe: Address,
  tx: StoredSafeTx,
): Promise<SafeTxPayment> {
  const native = await resolveAsset(chain)
  const value = BigInt(tx.value)
  const call: SafeTxPayment = { to: safe, asset: native, amount: value }
  if (tx.operation !== 0) return call
  if (tx.data.length <= 2) return { to: tx.to, asset: native, amount: value, via: safe }
  if (value !== 0n) return call
  const payment = decodeTokenPayment(safe, tx.data)
  if (!payment) return call
  const asset = await tokenAsset(chain, tx.to)
  if (!asset) return call
  return { to: payment.to, asset, amount: payment.amount, via: safe }
}

/** The counterparty and amount of an ERC-20 call that moves the Safe's tokens, if `data` is one. */
function decodeTokenPayment(safe: Address, data: Hex): { to: Address; amount: bigint } | undefined {
  const decoded = decodeErc20Call(data)
  switch (decoded?.functionName) {
    case 'transfer':
      return { to: decoded.args[0], amount: decoded.args[1] }
    case 'transferFrom':
      // Pulling someone else's tokens on an allowance is not the Safe spending its own.
      if (decoded.args[0].toLowerCase() !== safe.toLowerCase()) return undefined
      return { to: decoded.args[1], amount: decoded.args[2] }
    case 'approve':
      // An allowance moves nothing yet, but the spender can take it: it is the counterparty.
      return { to: decoded.args[0], amount: 0n }
    default:
      return undefined
  }
}

function decodeErc20Call(data: Hex) {
  try {
    return decodeFunctionData({ abi: erc20Abi, data })
  } catch {
    return undefined
  }
}

/** The token at `address`, or undefined when it does not answer as an ERC-20 (an ERC-721 shares these selectors). */
async function tokenAsset(chain: ChainHandle, address: Address) {
  try {
    return await resolveAsset(chain, address)
  } catch (error) {
    if (error instanceof BaseError && error.code === ValidationError.code) return undefined
    throw error
  }
}

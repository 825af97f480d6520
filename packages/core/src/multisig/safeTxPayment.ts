import {
  type Address,
  bytesToBigInt,
  bytesToHex,
  decodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  hexToBytes,
  isAddressEqual,
  parseAbi,
} from 'viem'
import { resolveAsset } from '../chain/resolveAsset.js'
import type { ChainHandle } from '../chain/types.js'
import { BaseError } from '../errors/baseError.js'
import { ValidationError } from '../errors/errors.js'
import type { IntentDraft } from '../intents/types.js'
import type { StoredSafeTx } from './safeTransaction.js'

/** What the policy engine judges of a Safe execution: who is paid, in what, how much, out of which Safe. */
export type SafeTxPayment = Pick<IntentDraft, 'to' | 'asset' | 'amount' | 'via'>

/**
 * What a SafeTx really spends, for the executing wallet's policy. A plain call with no data pays
 * `value` of the native coin to its `to`; an ERC-20 `transfer`, a `transferFrom` out of the Safe
 * and an `approve` (amount 0, the spender as counterparty) pay that token to its recipient. `via`
 * is then the Safe. A delegatecall to the address book's MultiSend (or MultiSendCallOnly) is judged
 * by what its batch pays (see `batchPayment`). Anything else (another call, another delegatecall, a
 * token call carrying value, a contract that is not an ERC-20 such as an ERC-721) is a call to the
 * Safe for `value` of the native coin, as it always was.
 * @example const { to, asset, amount, via } = await safeTxPayment(chain, safe, proposal.tx)
 */
export async function safeTxPayment(
  chain: ChainHandle,
  safe: Address,
  tx: Pick<StoredSafeTx, 'to' | 'value' | 'data' | 'operation'>,
): Promise<SafeTxPayment> {
  const native = await resolveAsset(chain)
  const value = BigInt(tx.value)
  const call: SafeTxPayment = { to: safe, asset: native, amount: value }
  if (tx.operation !== 0) return isMultiSend(chain, tx.to) ? batchPayment(chain, safe, tx.data) : call
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

const multiSendAbi = parseAbi(['function multiSend(bytes transactions) payable'])

function isMultiSend(chain: ChainHandle, to: Address): boolean {
  const { multiSend, multiSendCallOnly } = chain.contracts.safe ?? {}
  return [multiSend, multiSendCallOnly].some(
    (address) => address !== undefined && isAddressEqual(address, to),
  )
}

/**
 * What a MultiSend batch pays, judged as one payment: nothing moved → a call to the Safe; one payment
 * (a value transfer, an ERC-20 transfer/transferFrom/approve, or value sent with a call) → that
 * payment; several to the same recipient in the same asset → their sum. A batch that pays several
 * recipients or assets, or holds a delegatecall, cannot be judged as one intent and is refused
 * (`validation_failed`): propose one payment per Safe transaction.
 */
async function batchPayment(chain: ChainHandle, safe: Address, data: Hex): Promise<SafeTxPayment> {
  const native = await resolveAsset(chain)
  const payments: SafeTxPayment[] = []
  for (const inner of decodeBatch(data)) {
    if (inner.operation !== 0) throw unjudgeable('it holds a delegatecall')
    const paid = await safeTxPayment(chain, safe, { ...inner, operation: 0, value: inner.value.toString() })
    if (paid.via) payments.push(paid)
    // Value sent along with a contract call leaves the Safe too: paid to the contract called.
    else if (paid.amount > 0n) payments.push({ to: inner.to, asset: native, amount: paid.amount, via: safe })
  }
  const [first] = payments
  if (!first) return { to: safe, asset: native, amount: 0n }
  const sameCounterparty = payments.every(
    (payment) => isAddressEqual(payment.to, first.to) && payment.asset.address === first.asset.address,
  )
  if (!sameCounterparty) throw unjudgeable('it pays several recipients or assets')
  return { ...first, amount: payments.reduce((sum, payment) => sum + payment.amount, 0n) }
}

/** The calls packed in `multiSend(bytes)`: operation (1 byte), to (20), value (32), data length (32), data. */
function decodeBatch(data: Hex): { operation: number; to: Address; value: bigint; data: Hex }[] {
  let packed: Hex
  try {
    packed = decodeFunctionData({ abi: multiSendAbi, data }).args[0]
  } catch {
    throw unjudgeable('its data is not a multiSend(bytes) call')
  }
  const bytes = hexToBytes(packed)
  const calls = []
  for (let at = 0; at < bytes.length; ) {
    if (at + 85 > bytes.length) throw unjudgeable('its batch is cut short')
    const operation = bytes[at]!
    const to = getAddress(bytesToHex(bytes.slice(at + 1, at + 21)))
    const value = bytesToBigInt(bytes.slice(at + 21, at + 53))
    const length = Number(bytesToBigInt(bytes.slice(at + 53, at + 85)))
    if (at + 85 + length > bytes.length) throw unjudgeable('its batch is cut short')
    calls.push({ operation, to, value, data: bytesToHex(bytes.slice(at + 85, at + 85 + length)) })
    at += 85 + length
  }
  return calls
}

function unjudgeable(why: string): ValidationError {
  const message = `This MultiSend batch cannot be judged by the policy as one payment: ${why}. Propose one payment per Safe transaction`
  return new ValidationError(message, { details: { issues: [{ path: 'data', message }] } })
}

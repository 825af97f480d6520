import { type Address, erc20Abi } from 'viem'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import { BaseError } from '../errors/baseError.js'
import { isSettledOffchain, type TransactionRecord } from './types.js'

export type GasSettings = NonNullable<TransactionRecord['gas']>

/** ERC-20 base units a call pays out of the sending wallet itself (an ERC-20 send, a swap's input). */
export type TokenSpend = { token: Address; amount: bigint }

/**
 * Estimates gas and EIP-1559 fees for a call and checks the wallet can pay: value + max fee in the
 * native asset and, with `token`, that ERC-20 amount too. A failure here means nothing is signed.
 * @example const gas = await prepareGas(chain, from, { to, value: '0' }, tokenSpendOf(record))
 */
export async function prepareGas(
  chain: ChainHandle,
  from: Address,
  call: TransactionRecord['call'],
  token?: TokenSpend | undefined,
): Promise<GasSettings> {
  const value = BigInt(call.value)
  try {
    const [balance, fees, held] = await Promise.all([
      chain.client.getBalance({ address: from, blockTag: 'pending' }),
      chain.client.estimateFeesPerGas(),
      token &&
        chain.client.readContract({
          address: token.token,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [from],
          blockTag: 'pending',
        }),
    ])
    // Before estimating: a transfer of more than the wallet holds would only "revert" in the estimate.
    if (token && (held ?? 0n) < token.amount)
      throw insufficientFunds(chain, token.token, held ?? 0n, token.amount)
    if (balance < value) throw insufficientFunds(chain, 'native', balance, value)
    const estimate = await chain.client.estimateGas({ account: from, to: call.to, value, data: call.data })
    // Contract calls can cost more at execution than at estimation (state moves); plain transfers cannot.
    const limit = call.data && call.data !== '0x' ? (estimate * 12n) / 10n : estimate
    const required = value + limit * fees.maxFeePerGas
    if (balance < required) throw insufficientFunds(chain, 'native', balance, required)
    return {
      limit: limit.toString(),
      maxFeePerGas: fees.maxFeePerGas.toString(),
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
    }
  } catch (error) {
    throw toChainError(error, chain.name)
  }
}

/**
 * Gas and funds of an intent the wallet will broadcast (`prepareGas`); for one settled off-chain by
 * another party (an x402 payment), only the token it authorizes: no gas, undefined.
 * @example const gas = await prepareFunds(chain, record.from, record.call, record)
 */
export async function prepareFunds(
  chain: ChainHandle,
  from: Address,
  call: TransactionRecord['call'],
  intent: Parameters<typeof tokenSpendOf>[0] & Pick<TransactionRecord, 'kind'>,
): Promise<GasSettings | undefined> {
  const spend = tokenSpendOf(intent)
  if (!isSettledOffchain(intent)) return prepareGas(chain, from, call, spend)
  if (spend) await requireTokenFunds(chain, from, spend)
  return undefined
}

/**
 * Checks the wallet holds an ERC-20 amount it authorizes someone else to move (an x402 payment,
 * whose payee pays the gas): `insufficient_funds` otherwise.
 * @example await requireTokenFunds(chain, wallet.address, { token, amount })
 */
export async function requireTokenFunds(chain: ChainHandle, from: Address, spend: TokenSpend): Promise<void> {
  const held = await chain.client
    .readContract({ address: spend.token, abi: erc20Abi, functionName: 'balanceOf', args: [from] })
    .catch((error: unknown) => {
      throw toChainError(error, chain.name)
    })
  if (held < spend.amount) throw insufficientFunds(chain, spend.token, held, spend.amount)
}

/**
 * The ERC-20 amount an intent pays out of its own wallet; none for native value (the call's value
 * covers it) and none for a Safe's payment (`via`: the Safe pays, not the wallet).
 * @example await prepareGas(chain, record.from, record.call, tokenSpendOf(record))
 */
export function tokenSpendOf(intent: {
  asset: TransactionRecord['asset']
  amount: bigint | string
  via?: Address | undefined
}): TokenSpend | undefined {
  const amount = BigInt(intent.amount)
  if (intent.asset.address === 'native' || intent.via || amount === 0n) return undefined
  return { token: intent.asset.address, amount }
}

function insufficientFunds(
  chain: ChainHandle,
  asset: Address | 'native',
  balance: bigint,
  required: bigint,
): BaseError {
  const native = asset === 'native'
  const message = native
    ? 'The wallet cannot pay the value plus the maximum gas fee'
    : 'The wallet holds less of the token than the intent pays'
  return new BaseError('insufficient_funds', message, {
    details: native
      ? { chain: chain.name, balanceWei: balance.toString(), requiredWei: required.toString() }
      : { chain: chain.name, token: asset, balance: balance.toString(), required: required.toString() },
  })
}

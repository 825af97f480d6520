import type { Address } from 'viem'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import { BaseError } from '../errors/baseError.js'
import type { TransactionRecord } from './types.js'

export type GasSettings = NonNullable<TransactionRecord['gas']>

/**
 * Estimates gas and EIP-1559 fees for a call and checks the wallet can pay value + max fee.
 * A failure here means nothing is persisted: the intent is not accepted.
 * @example const gas = await prepareGas(chain, from, { to, value: '0' })
 */
export async function prepareGas(
  chain: ChainHandle,
  from: Address,
  call: TransactionRecord['call'],
): Promise<GasSettings> {
  const value = BigInt(call.value)
  try {
    const [balance, fees] = await Promise.all([
      chain.client.getBalance({ address: from, blockTag: 'pending' }),
      chain.client.estimateFeesPerGas(),
    ])
    if (balance < value) throw insufficientFunds(chain, balance, value)
    const estimate = await chain.client.estimateGas({ account: from, to: call.to, value, data: call.data })
    // Contract calls can cost more at execution than at estimation (state moves); plain transfers cannot.
    const limit = call.data && call.data !== '0x' ? (estimate * 12n) / 10n : estimate
    const required = value + limit * fees.maxFeePerGas
    if (balance < required) throw insufficientFunds(chain, balance, required)
    return {
      limit: limit.toString(),
      maxFeePerGas: fees.maxFeePerGas.toString(),
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
    }
  } catch (error) {
    throw toChainError(error, chain.name)
  }
}

function insufficientFunds(chain: ChainHandle, balance: bigint, required: bigint): BaseError {
  return new BaseError('insufficient_funds', 'The wallet cannot pay the value plus the maximum gas fee', {
    details: { chain: chain.name, balanceWei: balance.toString(), requiredWei: required.toString() },
  })
}

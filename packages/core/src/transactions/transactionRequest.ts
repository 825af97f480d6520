import type { TransactionSerializableEIP1559, TransactionSerializableEIP7702 } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { TransactionRecord } from './types.js'

/**
 * The transaction a signer signs for a record's call at `nonce` with these fees: EIP-1559, or EIP-7702
 * (type 4) when the call carries authorizations (a relayer delegating a session account or a wallet).
 * @example await signer.signTransaction(transactionRequest(chain, record.call, { nonce, gas, maxFeePerGas, maxPriorityFeePerGas }))
 */
export function transactionRequest(
  chain: Pick<ChainHandle, 'chainId'>,
  call: TransactionRecord['call'],
  fees: { nonce: number; gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
): TransactionSerializableEIP1559 | TransactionSerializableEIP7702 {
  const fields = {
    chainId: chain.chainId,
    to: call.to,
    value: BigInt(call.value),
    data: call.data,
    ...fees,
  }
  if (!call.authorizationList?.length) return { type: 'eip1559', ...fields }
  return { type: 'eip7702', ...fields, authorizationList: call.authorizationList }
}

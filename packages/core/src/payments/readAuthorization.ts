import { type Hex, isAddressEqual, parseEventLogs } from 'viem'
import { eip3009Abi } from '../chain/eip3009Abi.js'
import type { ChainHandle } from '../chain/types.js'
import type { SignedAuthorization } from './signedAuthorization.js'

/** What the chain says of a signed authorization. */
export type AuthorizationState =
  /** Used by a transfer to the payee: `hash` is the tx that used it. */
  | { state: 'used'; hash: Hex; blockNumber: bigint }
  /** Cancelled by its authorizer (`cancelAuthorization`): `hash` is the tx that cancelled it. */
  | { state: 'cancelled'; hash: Hex }
  /** Unused, and still usable: the payee may settle it until `validBefore`. */
  | { state: 'open' }
  /** Unused, and the chain's time has reached `validBefore`: it can never be used. */
  | { state: 'lapsed' }
  /** Spent, but no log of this token says how (a token that is not EIP-3009 as Circle's): left as it is. */
  | { state: 'unknown' }

/**
 * Reads an authorization's fate from the chain at its head: `authorizationState(authorizer, nonce)`,
 * and when it is spent, the token's `AuthorizationUsed` (with the `Transfer` to the payee in the same
 * tx) or `AuthorizationCanceled` log, filtered on both indexed topics from the block it was signed in.
 * @example const fate = await readAuthorization(chain, authorization)
 */
export async function readAuthorization(
  chain: Pick<ChainHandle, 'client'>,
  authorization: SignedAuthorization,
): Promise<AuthorizationState> {
  const { client } = chain
  const head = await client.getBlock({ blockTag: 'latest' })
  const { token: address, authorizer, nonce } = authorization
  const spent = await client.readContract({
    address,
    abi: eip3009Abi,
    functionName: 'authorizationState',
    args: [authorizer, nonce],
    blockNumber: head.number,
  })
  if (!spent)
    // Every later block is later in time, so an authorization unused at this time stays unused.
    return head.timestamp >= BigInt(authorization.validBefore) ? { state: 'lapsed' } : { state: 'open' }
  const range = {
    address,
    args: { authorizer, nonce },
    fromBlock: BigInt(authorization.fromBlock),
    toBlock: head.number,
  }
  const [used, cancelled] = await Promise.all([
    client.getContractEvents({ abi: eip3009Abi, eventName: 'AuthorizationUsed', ...range }),
    client.getContractEvents({ abi: eip3009Abi, eventName: 'AuthorizationCanceled', ...range }),
  ])
  const usedBy = used[0]?.transactionHash
  if (usedBy) {
    const receipt = await client.getTransactionReceipt({ hash: usedBy })
    return paidThePayee(receipt.logs, authorization)
      ? { state: 'used', hash: usedBy, blockNumber: receipt.blockNumber }
      : { state: 'unknown' }
  }
  const cancelledBy = cancelled[0]?.transactionHash
  return cancelledBy ? { state: 'cancelled', hash: cancelledBy } : { state: 'unknown' }
}

/** Whether the tx moved the authorized amount of the token from the authorizer to the payee. */
function paidThePayee(
  logs: Parameters<typeof parseEventLogs>[0]['logs'],
  authorization: SignedAuthorization,
): boolean {
  return parseEventLogs({ abi: eip3009Abi, eventName: 'Transfer', logs }).some(
    (log) =>
      isAddressEqual(log.address, authorization.token) &&
      isAddressEqual(log.args.from, authorization.authorizer) &&
      isAddressEqual(log.args.to, authorization.payee) &&
      log.args.value === BigInt(authorization.value),
  )
}

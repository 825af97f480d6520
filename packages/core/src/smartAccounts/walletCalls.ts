import { encodeAbiParameters, encodeFunctionData, type Hex, padHex, parseAbiParameters } from 'viem'
import { deleGatorAbi } from './deleGatorAbi.js'
import type { Delegation } from './delegation.js'
import type { SessionDelegations } from './sessionDelegations.js'
import type { SmartAccountCall } from './smartAccountCall.js'

const executions = parseAbiParameters('(address target, uint256 value, bytes callData)[]')
/** ERC-7579 mode: a batch of calls, reverting if one fails. */
const batchMode = padHex('0x01', { dir: 'right', size: 32 })

/**
 * The wallet's own `execute(batch)` of `calls`, as its owner makes it: the callData of the owner's user
 * operation for a HybridDeleGator wallet, or the data of a transaction an EIP-7702 wallet sends to
 * itself (its own key signs it). Both are allowed only from the EntryPoint or the wallet itself.
 * @example await owner7702.sendTransaction({ to: wallet, data: walletCalldata([revokeCall(delegation)]) })
 */
export function walletCalldata(calls: readonly SmartAccountCall[]): Hex {
  return encodeFunctionData({
    abi: deleGatorAbi,
    functionName: 'execute',
    args: [
      batchMode,
      encodeAbiParameters(executions, [
        calls.map(({ to, value = 0n, data = '0x' }) => ({ target: to, value, callData: data })),
      ]),
    ],
  })
}

/**
 * The call by which the wallet revokes `delegation` (`disableDelegation`, from the wallet to itself,
 * forwarded to the DelegationManager): run it through {@link walletCalldata}, or alone as its data.
 * From then on every redemption of that delegation reverts.
 */
export function revokeCall(delegation: Delegation): SmartAccountCall {
  return {
    to: delegation.delegator,
    data: encodeFunctionData({ abi: deleGatorAbi, functionName: 'disableDelegation', args: [delegation] }),
  }
}

/** The calls that revoke every delegation of a session (its `calls` and each token's `transfers`). */
export function revokeSessionCalls(delegations: SessionDelegations): SmartAccountCall[] {
  return [
    ...(delegations.calls ? [delegations.calls] : []),
    ...delegations.transfers.map(({ delegation }) => delegation),
  ].map(revokeCall)
}

import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  type Hex,
  parseAbiParameters,
  toFunctionSelector,
  zeroHash,
} from 'viem'
import { BaseError } from '../errors/baseError.js'
import type { Delegation } from './delegation.js'
import { delegationManagerAbi } from './delegationManagerAbi.js'
import type { SessionDelegations } from './sessionDelegations.js'
import type { SmartAccountCall } from './smartAccountCall.js'

const permissionContext = parseAbiParameters(
  '(address delegate, address delegator, bytes32 authority, (address enforcer, bytes terms, bytes args)[] caveats, uint256 salt, bytes signature)[]',
)
const transferSelector = toFunctionSelector('transfer(address,uint256)')
/** ERC-7579 mode: a single call, reverting on failure. */
const singleCallMode = zeroHash

/**
 * `redeemDelegations(contexts, modes, executions)` for `calls`, in order, each a single-call execution
 * the wallet makes: an ERC-20 `transfer` of a metered token through that token's delegation, any other
 * call through `calls`. The same calldata serves a session account's user operation (sender = the
 * session account, which forwards it to the DelegationManager) and a plain transaction from the session
 * key to the DelegationManager. Either way the DelegationManager checks every caveat and the whole
 * batch reverts if one call breaks one.
 * @example const callData = redeemCalldata(signedDelegations, [{ to: usdc, data: approve }, { to: router, data: swap }])
 */
export function redeemCalldata(delegations: SessionDelegations, calls: readonly SmartAccountCall[]): Hex {
  const chosen = calls.map((call) => delegationFor(delegations, call))
  return encodeFunctionData({
    abi: delegationManagerAbi,
    functionName: 'redeemDelegations',
    args: [
      chosen.map((delegation) => encodeAbiParameters(permissionContext, [[delegation]])),
      calls.map(() => singleCallMode),
      calls.map(({ to, value = 0n, data = '0x' }) =>
        encodePacked(['address', 'uint256', 'bytes'], [to, value, data]),
      ),
    ],
  })
}

function delegationFor(delegations: SessionDelegations, call: SmartAccountCall): Delegation {
  const isTransfer = call.data?.slice(0, 10).toLowerCase() === transferSelector && !call.value
  const metered = isTransfer ? delegations.transfers.find(({ token }) => same(token, call.to)) : undefined
  const delegation = metered?.delegation ?? delegations.calls
  if (!delegation) {
    throw new BaseError('policy_blocked', 'The session key has no permission for this call', {
      details: { to: call.to },
    })
  }
  return delegation
}

const same = (a: Address, b: Address) => a.toLowerCase() === b.toLowerCase()

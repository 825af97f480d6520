import { parseAbi } from 'viem'

/**
 * The parts of the Delegation Framework's DelegationManager core uses (the framework's own ABI is in
 * `@metamask/delegation-abis`; loading it whole costs ~80 ms at import, so these few entries are kept
 * here, and `delegationFrameworkAbis.test.ts` checks them against it).
 */
export const delegationManagerAbi = parseAbi([
  'struct Caveat { address enforcer; bytes terms; bytes args; }',
  'struct Delegation { address delegate; address delegator; bytes32 authority; Caveat[] caveats; uint256 salt; bytes signature; }',
  'function redeemDelegations(bytes[] permissionContexts, bytes32[] modes, bytes[] executionCallDatas)',
  'function disabledDelegations(bytes32 delegationHash) view returns (bool)',
  'function getDelegationHash(Delegation delegation) pure returns (bytes32)',
  'error CannotUseADisabledDelegation()',
])

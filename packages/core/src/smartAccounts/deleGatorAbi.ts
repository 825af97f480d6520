import { parseAbi } from 'viem'

/**
 * The parts of the DeleGators (HybridDeleGator, EIP7702StatelessDeleGator; both DeleGatorCore) core
 * uses; checked against `@metamask/delegation-abis` by `delegationFrameworkAbis.test.ts`.
 */
export const deleGatorAbi = parseAbi([
  'struct Caveat { address enforcer; bytes terms; bytes args; }',
  'struct Delegation { address delegate; address delegator; bytes32 authority; Caveat[] caveats; uint256 salt; bytes signature; }',
  'function execute(bytes32 mode, bytes executionCalldata) payable',
  'function disableDelegation(Delegation delegation)',
  'function initialize(address owner, string[] keyIds, uint256[] xValues, uint256[] yValues)',
  'function redeemDelegations(bytes[] permissionContexts, bytes32[] modes, bytes[] executionCallDatas)',
])

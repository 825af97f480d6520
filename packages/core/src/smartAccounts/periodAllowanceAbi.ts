import { parseAbi } from 'viem'

/**
 * `getAvailableAmount` of the periodic transfer enforcers (NativeTokenPeriodTransferEnforcer,
 * ERC20PeriodTransferEnforcer): what a delegation may still move in the current period.
 */
export const periodAllowanceAbi = parseAbi([
  'function getAvailableAmount(bytes32 delegationHash, address delegationManager, bytes terms) view returns (uint256 availableAmount, bool isNewPeriod, uint256 currentPeriod)',
])

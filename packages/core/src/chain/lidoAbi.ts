import { parseAbi } from 'viem'

/** Lido's stETH entry point and the ERC-20 event that reports what a stake minted. */
export const lidoAbi = parseAbi([
  'function submit(address referral) payable returns (uint256)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
])

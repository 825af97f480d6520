import { parseAbi } from 'viem'

/** Permit2's allowance read and approve (what a revoke of a Permit2 allowance calls). */
export const permit2AllowanceAbi = parseAbi([
  'function allowance(address owner, address token, address spender) view returns (uint160 amount, uint48 expiration, uint48 nonce)',
  'function approve(address token, address spender, uint160 amount, uint48 expiration)',
])

/** The operator and single-token approvals ERC-721 (and, for operators, ERC-1155) share. */
export const nftApprovalAbi = parseAbi([
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'function setApprovalForAll(address operator, bool approved)',
  'function getApproved(uint256 tokenId) view returns (address)',
  'function approve(address to, uint256 tokenId)',
])

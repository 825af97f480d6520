import { parseAbi } from 'viem'

/**
 * The calls and events of the token standards the effects module reads, beyond viem's `erc20Abi`:
 * OpenZeppelin 4's allowance helpers, ERC-721 (its `transferFrom`/`approve` share the ERC-20
 * selectors; its events index the token id, so they have one more topic), ERC-1155, WETH9, ERC-4626 and Permit2.
 */
export const effectAbis = {
  erc20Allowance: parseAbi([
    'function increaseAllowance(address spender, uint256 addedValue) returns (bool)',
    'function decreaseAllowance(address spender, uint256 subtractedValue) returns (bool)',
  ]),
  erc721: parseAbi([
    'function transferFrom(address from, address to, uint256 tokenId)',
    'function safeTransferFrom(address from, address to, uint256 tokenId)',
    'function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)',
    'function approve(address to, uint256 tokenId)',
    'function setApprovalForAll(address operator, bool approved)',
    'function supportsInterface(bytes4 interfaceId) view returns (bool)',
    'function symbol() view returns (string)',
    'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
    'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
    'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  ]),
  /** What stands of an NFT approval: an operator (ERC-721 and ERC-1155 alike), one ERC-721 token's spender. */
  nftApprovals: parseAbi([
    'function isApprovedForAll(address owner, address operator) view returns (bool)',
    'function getApproved(uint256 tokenId) view returns (address)',
    'function setApprovalForAll(address operator, bool approved)',
    'function approve(address to, uint256 tokenId)',
  ]),
  erc1155: parseAbi([
    'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
    'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] values, bytes data)',
    'function setApprovalForAll(address operator, bool approved)',
    'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
    'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  ]),
  weth: parseAbi([
    'function deposit() payable',
    'function withdraw(uint256 wad)',
    'event Deposit(address indexed dst, uint256 wad)',
    'event Withdrawal(address indexed src, uint256 wad)',
  ]),
  /** ERC-4626 vaults: shares minted to `owner` on a deposit, burnt from `owner` on a withdrawal. */
  erc4626: parseAbi([
    'event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares)',
    'event Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares)',
  ]),
  permit2: parseAbi([
    'function approve(address token, address spender, uint160 amount, uint48 expiration)',
    'event Approval(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration)',
  ]),
  /** What stands of a Permit2 allowance, and the call that sets it. */
  permit2Allowance: parseAbi([
    'function allowance(address owner, address token, address spender) view returns (uint160 amount, uint48 expiration, uint48 nonce)',
    'function approve(address token, address spender, uint160 amount, uint48 expiration)',
  ]),
  multiSend: parseAbi(['function multiSend(bytes transactions) payable']),
} as const

/** ERC-165 interface ids: ERC-721 and ERC-1155. */
export const interfaceIds = { erc721: '0x80ac58cd', erc1155: '0xd9b67a26' } as const

import { parseAbi } from 'viem'

/** The ERC-8004 Identity Registry functions and events core uses (the standard's interface). */
export const identityRegistryAbi = parseAbi([
  'struct MetadataEntry { string metadataKey; bytes metadataValue; }',
  'function register(string agentURI, MetadataEntry[] metadata) returns (uint256 agentId)',
  'function setAgentURI(uint256 agentId, string newURI)',
  'function setAgentWallet(uint256 agentId, address newWallet, uint256 deadline, bytes signature)',
  'function getAgentWallet(uint256 agentId) view returns (address)',
  'function getMetadata(uint256 agentId, string metadataKey) view returns (bytes)',
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function tokenURI(uint256 tokenId) view returns (string)',
  'function transferFrom(address from, address to, uint256 tokenId)',
  'event Registered(uint256 indexed agentId, string agentURI, address indexed owner)',
])

/** EIP-712 domain name and type of the registry's `setAgentWallet` signature. */
export const agentWalletSetDomainName = 'ERC8004IdentityRegistry'
export const agentWalletSetTypes = {
  AgentWalletSet: [
    { name: 'agentId', type: 'uint256' },
    { name: 'newWallet', type: 'address' },
    { name: 'owner', type: 'address' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

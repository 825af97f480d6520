import type { Address, Hex } from 'viem'

export type IdentityService = { name: string; endpoint: string; version?: string | undefined }

/** The ERC-8004 registration file this service writes into the agentURI. */
export type RegistrationFile = {
  type: 'https://eips.ethereum.org/EIPS/eip-8004#registration-v1'
  name: string
  description: string
  agentType: string
  capabilities: string[]
  services: IdentityService[]
  registrations: { agentId: string; agentRegistry: string }[]
  active: boolean
}

/** What we store about an identity we registered (collection `identities`). */
export type IdentityRecord = {
  /** `{chainId}:{registry}:{agentId}`: one record per token. */
  id: string
  tenantId: string
  walletId: string
  /** Owner of the wallet record (agents see only their own). */
  ownerId: string
  chain: string
  chainId: number
  registry: Address
  agentId: string
  walletAddress: Address
  ownerAddress: Address
  agentName: string
  agentType: string
  capabilities: string[]
  services: IdentityService[]
  agentURI: string
  transactions: { register: string; setAgentURI: string; setAgentWallet?: string | undefined }
  hashes: { register?: Hex | undefined; setAgentURI?: Hex | undefined; setAgentWallet?: Hex | undefined }
  createdAt: string
}

/** The stored view of an identity (lists). */
export type Identity = {
  agentId: string
  chain: string
  chainId: number
  agentRegistry: string
  walletAddress: Address
  ownerAddress: Address
  agentName: string
  agentType: string
  capabilities: string[]
  services: IdentityService[]
  agentURI: string
  createdAt: string
}

export function toIdentity(record: IdentityRecord): Identity {
  return {
    agentId: record.agentId,
    chain: record.chain,
    chainId: record.chainId,
    agentRegistry: agentRegistryId(record.chainId, record.registry),
    walletAddress: record.walletAddress,
    ownerAddress: record.ownerAddress,
    agentName: record.agentName,
    agentType: record.agentType,
    capabilities: record.capabilities,
    services: record.services,
    agentURI: record.agentURI,
    createdAt: record.createdAt,
  }
}

/** The standard's registry identifier: `eip155:{chainId}:{registry}`. */
export function agentRegistryId(chainId: number, registry: Address): string {
  return `eip155:${chainId}:${registry}`
}

export function identityRecordId(chainId: number, registry: Address, agentId: bigint | string): string {
  return `${chainId}:${registry.toLowerCase()}:${agentId.toString()}`
}

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

/** The on-chain steps of a registration, in order (`setAgentWallet` only when the registry has not bound the wallet). */
export type IdentityStep = 'register' | 'setAgentURI' | 'setAgentWallet'

/**
 * registering ⇄ awaiting_approval (a step paused by a `require_approval` rule) → registered | failed.
 * Records written before registrations were tracked have no status: they are registered.
 */
export type IdentityRegistrationStatus = 'registering' | 'awaiting_approval' | 'registered' | 'failed'

export const activeIdentityStatuses: readonly IdentityRegistrationStatus[] = [
  'registering',
  'awaiting_approval',
]

/** An identity registration as a tracked operation, then the identity we registered (collection `identities`). */
export type IdentityRecord = {
  /** `idn_…`; older records: `{chainId}:{registry}:{agentId}`. */
  id: string
  tenantId: string
  walletId: string
  /** Owner of the wallet record (agents see only their own). */
  ownerId: string
  /** The managed wallet that mints, owns the NFT and pays gas (default: the agent wallet). */
  ownerWalletId?: string | undefined
  /** Who asked: the steps run on the money path as this principal, also after a restart. */
  requestedBy?: { id: string; role: 'agent' | 'approver' | 'admin' } | undefined
  chain: string
  chainId: number
  registry: Address
  /** Known once the mint confirmed. */
  agentId?: string | undefined
  walletAddress: Address
  ownerAddress: Address
  agentName: string
  agentType: string
  description?: string | undefined
  capabilities: string[]
  services: IdentityService[]
  /** The registration file as a `data:` URI, known once the mint confirmed. */
  agentURI?: string | undefined
  status?: IdentityRegistrationStatus | undefined
  /** The step running (or paused, or where it failed). */
  step?: IdentityStep | undefined
  /** The approval the current step waits for. */
  approvalId?: string | undefined
  transactions: {
    register?: string | undefined
    setAgentURI?: string | undefined
    setAgentWallet?: string | undefined
  }
  hashes: { register?: Hex | undefined; setAgentURI?: Hex | undefined; setAgentWallet?: Hex | undefined }
  error?: { code: string; message: string } | undefined
  createdAt: string
  updatedAt?: string | undefined
  registeredAt?: string | undefined
}

/** A registration in progress (or ended) as the API shows it. */
export type IdentityRegistration = {
  id: string
  status: IdentityRegistrationStatus
  step: IdentityStep | null
  approvalId: string | null
  chain: string
  chainId: number
  agentRegistry: string
  agentId: string | null
  walletAddress: Address
  ownerAddress: Address
  agentName: string
  agentType: string
  agentURI: string | null
  transactions: IdentityRecord['transactions']
  hashes: IdentityRecord['hashes']
  error: { code: string; message: string } | null
  createdAt: string
  updatedAt: string
}

export function isRegisteredIdentity(record: IdentityRecord): boolean {
  return (record.status ?? 'registered') === 'registered'
}

export function toIdentityRegistration(record: IdentityRecord): IdentityRegistration {
  return {
    id: record.id,
    status: record.status ?? 'registered',
    step: record.step ?? null,
    approvalId: record.approvalId ?? null,
    chain: record.chain,
    chainId: record.chainId,
    agentRegistry: agentRegistryId(record.chainId, record.registry),
    agentId: record.agentId ?? null,
    walletAddress: record.walletAddress,
    ownerAddress: record.ownerAddress,
    agentName: record.agentName,
    agentType: record.agentType,
    agentURI: record.agentURI ?? null,
    transactions: record.transactions,
    hashes: record.hashes,
    error: record.error ?? null,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt ?? record.createdAt,
  }
}

/** The stored view of an identity (lists). */
export type Identity = {
  agentId: string
  /** The registration operation that created it (`GET /identity/registration/:id`). */
  registrationId: string
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

/** The view of a registered identity (its agentId and agentURI are set once registered). */
export function toIdentity(record: IdentityRecord): Identity {
  return {
    agentId: record.agentId!,
    registrationId: record.id,
    chain: record.chain,
    chainId: record.chainId,
    agentRegistry: agentRegistryId(record.chainId, record.registry),
    walletAddress: record.walletAddress,
    ownerAddress: record.ownerAddress,
    agentName: record.agentName,
    agentType: record.agentType,
    capabilities: record.capabilities,
    services: record.services,
    agentURI: record.agentURI!,
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

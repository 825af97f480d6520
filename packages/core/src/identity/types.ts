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
export type IdentityRegistrationStatus = NonNullable<IdentityRecord['status']>

export const activeIdentityStatuses: readonly IdentityRegistrationStatus[] = [
  'registering',
  'awaiting_approval',
]

/** What every identity record carries, whatever its status. */
type IdentityBase = {
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
  walletAddress: Address
  ownerAddress: Address
  agentName: string
  agentType: string
  description?: string | undefined
  capabilities: string[]
  services: IdentityService[]
  /** The approval the current step waits for. */
  approvalId?: string | undefined
  transactions: {
    register?: string | undefined
    setAgentURI?: string | undefined
    setAgentWallet?: string | undefined
  }
  hashes: { register?: Hex | undefined; setAgentURI?: Hex | undefined; setAgentWallet?: Hex | undefined }
  createdAt: string
  updatedAt?: string | undefined
}

/** What the confirmed mint adds: the token's id, and the registration file (which names it) as a `data:` URI. */
type Minted = { agentId: string; agentURI: string }

/** A registration on its mint step (`step` absent in records that had not started it). */
export type MintingIdentity = IdentityBase & {
  status: 'registering' | 'awaiting_approval'
  step?: 'register' | undefined
  agentId?: undefined
  agentURI?: undefined
  error?: undefined
  registeredAt?: undefined
}

/** Minted: setting its agentURI, then binding its agent wallet. */
export type MintedIdentity = IdentityBase &
  Minted & {
    status: 'registering' | 'awaiting_approval'
    step: 'setAgentURI' | 'setAgentWallet'
    error?: undefined
    registeredAt?: undefined
  }

/** The identity we registered. Records written before registrations were tracked have no status. */
export type RegisteredIdentity = IdentityBase &
  Minted & {
    status?: 'registered' | undefined
    step?: undefined
    error?: undefined
    registeredAt?: string | undefined
  }

/** A step failed (`step`, `error`); a mint that confirmed keeps its agentId. */
export type FailedIdentity = IdentityBase &
  Partial<Minted> & {
    status: 'failed'
    step?: IdentityStep | undefined
    error: { code: string; message: string }
    registeredAt?: string | undefined
  }

/** A registration still running or paused. */
export type ActiveIdentity = MintingIdentity | MintedIdentity

/**
 * An identity registration as a tracked operation, then the identity we registered (collection
 * `identities`), in one of its statuses.
 */
export type IdentityRecord = ActiveIdentity | RegisteredIdentity | FailedIdentity

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

/**
 * Whether the record is a registered identity (a record written before registrations were tracked
 * has no status, and is one).
 * @example const registered = records.filter(isRegisteredIdentity)
 */
export function isRegisteredIdentity(record: IdentityRecord): record is RegisteredIdentity {
  return (record.status ?? 'registered') === 'registered'
}

/**
 * Whether an active registration is past its mint (its agentId and agentURI known).
 * @example if (isMinted(record)) await setAgentURI(record)
 */
export function isMinted(record: ActiveIdentity): record is MintedIdentity {
  return record.step === 'setAgentURI' || record.step === 'setAgentWallet'
}

/**
 * Whether the registration still has steps to run (or waits for an approver).
 * @example if (!isActiveIdentity(record)) return record
 */
export function isActiveIdentity(record: IdentityRecord): record is ActiveIdentity {
  return record.status !== undefined && activeIdentityStatuses.includes(record.status)
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
export function toIdentity(record: RegisteredIdentity): Identity {
  return {
    agentId: record.agentId,
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

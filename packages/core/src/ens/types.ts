import type { Address, Hex } from 'viem'

/** committing → committed → registering → registered | failed (one transition per step). */
export type EnsRegistrationStatus = 'committing' | 'committed' | 'registering' | 'registered' | 'failed'

export const activeEnsStatuses: readonly EnsRegistrationStatus[] = ['committing', 'committed', 'registering']

/** A `.eth` registration as a tracked operation (collection `ens_names`). */
export type EnsRegistrationRecord = {
  id: string
  tenantId: string
  walletId: string
  /** Owner of the wallet record (agents see only their own). */
  ownerId: string
  /** Who asked: the steps run on the money path as this principal, also after a restart. */
  requestedBy: { id: string; role: 'agent' | 'approver' | 'admin' }
  chain: string
  chainId: number
  name: string
  label: string
  node: Hex
  owner: Address
  durationSeconds: number
  controller: Address
  resolver: Address
  /** Commit/reveal secret: not a key (it only hides the name until the reveal), kept to resume. */
  secret: Hex
  commitment: Hex
  setReverse: boolean
  /** Rent quoted at request time, base units of the native coin. */
  rentWei: string
  status: EnsRegistrationStatus
  approvalId?: string | undefined
  commitTransactionId?: string | undefined
  commitHash?: Hex | undefined
  /** Block timestamp (unix seconds) of the commit. */
  committedAt?: number | undefined
  registerTransactionId?: string | undefined
  registerHash?: Hex | undefined
  reverseTransactionId?: string | undefined
  reverseHash?: Hex | undefined
  reverseError?: { code: string; message: string } | undefined
  /** Unix seconds. */
  expires?: number | undefined
  error?: { code: string; message: string } | undefined
  createdAt: string
  updatedAt: string
  registeredAt?: string | undefined
}

/** The registration as the API shows it (never the secret). */
export type EnsRegistration = Omit<EnsRegistrationRecord, 'secret' | 'tenantId' | 'ownerId' | 'requestedBy'>

export function toEnsRegistration(record: EnsRegistrationRecord): EnsRegistration {
  const {
    secret: _secret,
    tenantId: _tenantId,
    ownerId: _ownerId,
    requestedBy: _requestedBy,
    ...view
  } = record
  return view
}

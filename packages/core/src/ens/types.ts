import type { Address, Hex } from 'viem'

/** committing → committed → registering → registered | failed (one transition per step). */
export type EnsRegistrationStatus = EnsRegistrationRecord['status']

export const activeEnsStatuses: readonly EnsRegistrationStatus[] = ['committing', 'committed', 'registering']

/** What every registration carries, whatever its status. */
type EnsRegistrationBase = {
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
  /** The approval the current step waits for, if it paused. */
  approvalId?: string | undefined
  createdAt: string
  updatedAt: string
}

/** What the confirmed commit adds. */
type Commit = {
  commitTransactionId: string
  commitHash: Hex
  /** Block timestamp (unix seconds) of the commit. */
  committedAt: number
}

/** What the register step adds (the reverse record is optional, and its failure is not fatal). */
type Register = {
  registerTransactionId: string
  registerHash: Hex
  reverseTransactionId?: string | undefined
  reverseHash?: Hex | undefined
  reverseError?: { code: string; message: string } | undefined
  /** Unix seconds. */
  expires?: number | undefined
}

/** Fields a status does not have (so every field reads on the union, as undefined where absent). */
type Absent<Field extends string> = { [Key in Field]?: undefined }

type Ended = Absent<'registeredAt' | 'error'>

/** The commit tx submitted (`commitTransactionId` once the money path took it), not yet confirmed. */
export type CommittingEnsRegistration = EnsRegistrationBase &
  Absent<Exclude<keyof Commit, 'commitTransactionId'> | keyof Register> &
  Ended & { status: 'committing'; commitTransactionId?: string | undefined }

/** Committed, waiting for the commitment to age. */
export type CommittedEnsRegistration = EnsRegistrationBase &
  Commit &
  Absent<keyof Register> &
  Ended & { status: 'committed' }

/** Registering (then setting the reverse record): what the step recorded so far. */
export type RegisteringEnsRegistration = EnsRegistrationBase &
  Commit &
  Partial<Register> &
  Ended & { status: 'registering' }

/** The name is the wallet's, with `ens.registered` saved in the same commit. */
export type RegisteredEnsRegistration = EnsRegistrationBase &
  Commit &
  Register & { status: 'registered'; registeredAt: string; error?: undefined }

/** A step failed (`error`); what the steps before it recorded stays. */
export type FailedEnsRegistration = EnsRegistrationBase &
  Partial<Commit> &
  Partial<Register> & {
    status: 'failed'
    error: { code: string; message: string }
    registeredAt?: string | undefined
  }

/**
 * A `.eth` registration as a tracked operation (collection `ens_names`), in one of its statuses;
 * each carries what its steps so far recorded.
 */
export type EnsRegistrationRecord =
  | CommittingEnsRegistration
  | CommittedEnsRegistration
  | RegisteringEnsRegistration
  | RegisteredEnsRegistration
  | FailedEnsRegistration

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

/**
 * LiteSVM's transaction errors as the JSON a real cluster puts in `err` (serde's shape of Agave's
 * `TransactionError`): `"BlockhashNotFound"`, `{"InstructionError":[0,{"Custom":1}]}`, … — what
 * `@solana/kit` decodes into its `SOLANA_ERROR__TRANSACTION_ERROR__*` codes.
 */
export type TransactionError = string | Record<string, unknown>

// In the order of LiteSVM's `TransactionErrorFieldless` (a const enum: not present at run time).
const transactionErrors = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
]

// In the order of LiteSVM's `InstructionErrorFieldless`.
const instructionErrors = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
]

type LiteSvmInstructionError = number | { code?: number; msg?: string }
type LiteSvmError = number | { index?: number; accountIndex?: number; err?: () => LiteSvmInstructionError }

function toInstructionError(error: LiteSvmInstructionError): unknown {
  if (typeof error === 'number') return instructionErrors[error] ?? 'GenericError'
  if (error.code !== undefined) return { Custom: error.code }
  return { BorshIoError: error.msg ?? '' }
}

/** The JSON `err` of a failed transaction. */
export function toTransactionError(error: unknown): TransactionError {
  const value = error as LiteSvmError
  if (typeof value === 'number') return transactionErrors[value] ?? 'SanitizeFailure'
  const kind = (value as object).constructor.name.replace(/^TransactionError/, '')
  if (kind === 'InstructionError' && value.err)
    return { InstructionError: [value.index, toInstructionError(value.err())] }
  if (kind === 'DuplicateInstruction') return { DuplicateInstruction: value.index }
  return { [kind]: { account_index: value.accountIndex } }
}

/**
 * Whether a transaction that failed with `err` still lands in a block (and pays its fee): it failed
 * while executing. Any other failure (a blockhash, the fee payer, a signature) keeps it out of the chain.
 */
export function landsDespite(err: TransactionError): boolean {
  if (typeof err === 'string') return false
  return (
    'InstructionError' in err ||
    'InsufficientFundsForRent' in err ||
    'ProgramExecutionTemporarilyRestricted' in err
  )
}

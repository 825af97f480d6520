export { BaseError, isAgentWalletError, type BaseErrorParameters } from './errors/baseError.js'
export { errorCodes, type ErrorCode } from './errors/errorCodes.js'
export {
  ChainUnavailableError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  NotImplementedError,
  PolicyBlockedError,
  ValidationError,
} from './errors/errors.js'
export { EventBus, type DomainEvent, type EventListeners, type EventPayloads } from './events/eventBus.js'
export {
  eventNames,
  toCanonicalEventName,
  toWebhookEventName,
  type EventName,
  type WebhookEventName,
} from './events/eventNames.js'
export * from './storage/types.js'
export * from './vault/types.js'
export * from './chain/types.js'
export * from './policy/types.js'
export { keyedMutex, type KeyedMutex, type Release } from './storage/keyedMutex.js'
export { memoryStorage, type MemoryStorageOptions } from './storage/memoryStorage.js'
export { compareValues, matchesQuery, queryRecords } from './storage/queryRecords.js'
export { aesGcmOpen, aesGcmSeal, type SealedBox } from './vault/aesGcm.js'
export { openEnvelope, sealEnvelope } from './vault/envelope.js'
export { assertMnemonic, hdWalletFromMnemonic, type HdWallet } from './vault/hdWallet.js'
export { loadOrCreateMasterKey, type LoadOrCreateMasterKeyParameters } from './vault/loadOrCreateMasterKey.js'
export type { EnvelopeKeyRecord, HdKeyRecord, LocalKeyRecord } from './vault/localKeyRecord.js'
export { localKeyVault, type LocalKeyVault, type LocalKeyVaultOptions } from './vault/localKeyVault.js'
export { keyFingerprint, masterKeyEnvVar, masterKeyFromEnv, parseMasterKey } from './vault/masterKey.js'
export { memoryKeyVault, type MemoryKeyVaultOptions } from './vault/memoryKeyVault.js'
export { storageKeyRecordStore, vaultKeysCollection } from './vault/storageKeyRecordStore.js'
export { parsePrivateKey, vaultAddressId } from './vault/vaultAddress.js'
export {
  amountIssueMessage,
  describeAmountIssue,
  formatAmount,
  parseAmount,
  type AmountIssue,
} from './utils/amounts.js'
export { maxDurationMs, parseDuration } from './utils/duration.js'
export {
  addressSchema,
  decimalAmountSchema,
  durationSchema,
  hexDataSchema,
  isValidAddress,
} from './schemas/primitives.js'
export * from './policy/ruleSchemas.js'
export { rulesPolicyEngine, type RulesPolicyEngineOptions } from './policy/rulesPolicyEngine.js'
export { maxRulesPerScope, validateRules } from './policy/validateRules.js'
export { lookbackMs } from './policy/lookbackMs.js'
export { defaultTenantRules } from './policy/defaultRules.js'
export { isContractCall } from './policy/isContractCall.js'
export { matchesAsset } from './policy/matchesAsset.js'

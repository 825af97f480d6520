export {
  getApproval,
  type ListApprovalsParameters,
  listApprovals,
  listApprovalsSchema,
} from './approvals/listApprovals.js'
export {
  approveApproval,
  expireApprovals,
  type ResolveApprovalReturnType,
  rejectApproval,
} from './approvals/resolveApproval.js'
export * from './approvals/types.js'
export { type KnownChain, publicChains } from './chain/publicChains.js'
export { resolveAsset } from './chain/resolveAsset.js'
export { isTransportError, toChainError } from './chain/toChainError.js'
export * from './chain/types.js'
export {
  type ChainConfig,
  type ViemChainProviderOptions,
  viemChainProvider,
} from './chain/viemChainProvider.js'
export type { AgentWalletContext, CoreOptions } from './context.js'
export { type AgentWallet, type AgentWalletConfig, createAgentWallet } from './createAgentWallet.js'
export * from './defi/defiSchemas.js'
export { type GetPricesReturnType, getPrices, type PriceSource, type TokenPrice } from './defi/getPrices.js'
export type { QuoteRequest, QuoteSource, SwapCall, SwapQuote } from './defi/quoteSource.js'
export {
  defaultSlippageBps,
  type QuoteSwapReturnType,
  type QuoteView,
  quoteSwap,
  type TokenView,
} from './defi/quoteSwap.js'
export {
  isNativeToken,
  nativeTokenAddress,
  resolveSwapToken,
  type SwapToken,
} from './defi/resolveSwapToken.js'
export { type StakeReturnType, type StakingProtocol, stake, stakingProtocols } from './defi/stake.js'
export { type SwapReturnType, swap } from './defi/swap.js'
export type { SwapOperation, SwapStatus, SwapStep } from './defi/swapTypes.js'
export { getSwap } from './defi/trackSwap.js'
export { uniswapV2QuoteSource } from './defi/uniswapV2QuoteSource.js'
export { uniswapV3FeeTiers, uniswapV3QuoteSource } from './defi/uniswapV3QuoteSource.js'
export { type ZeroExQuoteSourceOptions, zeroExQuoteSource } from './defi/zeroExQuoteSource.js'
export { type CheckEnsNameReturnType, checkEnsName } from './ens/checkEnsName.js'
export { ensControllerAbi, ensRegistryAbi, ensResolverAbi, ensReverseRegistrarAbi } from './ens/ensAbis.js'
export {
  type CheckEnsNameOptions,
  checkEnsOptionsSchema,
  type RegisterEnsNameParameters,
  type ResolveEnsNameOptions,
  registerEnsSchema,
  resolveEnsOptionsSchema,
} from './ens/ensSchemas.js'
export { getEnsRegistration, type ListEnsNamesReturnType, listEnsNames } from './ens/listEnsNames.js'
export {
  minEthLabelLength,
  type ParsedEnsName,
  type ParsedEthName,
  parseEnsName,
  parseEthName,
} from './ens/parseEnsName.js'
export { registerEnsName } from './ens/registerEnsName.js'
export {
  type ResolveEnsNameReturnType,
  type ReverseEnsNameReturnType,
  resolveEnsName,
  reverseEnsName,
} from './ens/resolveEnsName.js'
export { resumeEnsRegistrations, stopEnsRegistrations } from './ens/resumeEnsRegistrations.js'
export * from './ens/types.js'
export { BaseError, type BaseErrorParameters, isAgentWalletError } from './errors/baseError.js'
export { type ErrorCode, errorCodes } from './errors/errorCodes.js'
export {
  ChainUnavailableError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  NotImplementedError,
  PolicyBlockedError,
  ValidationError,
} from './errors/errors.js'
export { appendEvent, toDomainEvent } from './events/appendEvent.js'
export { type DomainEvent, EventBus, type EventListeners, type EventPayloads } from './events/eventBus.js'
export {
  type EventName,
  eventNames,
  toCanonicalEventName,
  toWebhookEventName,
  type WebhookEventName,
} from './events/eventNames.js'
export { requestHash } from './idempotency/requestHash.js'
export type { IdempotencyRecord } from './idempotency/types.js'
export { type IdempotencyOptions, withIdempotency } from './idempotency/withIdempotency.js'
export {
  type AdvanceIdentityOptions,
  advanceIdentityRegistration,
  resumeIdentityRegistrations,
} from './identity/advanceIdentityRegistration.js'
export { type GetIdentityReturnType, getIdentity, type IdentityStatus } from './identity/getIdentity.js'
export { getIdentityRegistration } from './identity/getIdentityRegistration.js'
export {
  howToVerifyIdentityProof,
  type IdentityProof,
  identityProofDomain,
  identityProofTypes,
  signIdentityProof,
} from './identity/identityProof.js'
export { agentWalletSetTypes, identityRegistryAbi } from './identity/identityRegistryAbi.js'
export {
  agentIdSchema,
  identityQuerySchema,
  type RegisterIdentityParameters,
  registerIdentitySchema,
} from './identity/identitySchemas.js'
export {
  identitiesOfWallet,
  type ListIdentitiesReturnType,
  listIdentities,
} from './identity/listIdentities.js'
export {
  type PendingIdentityRegistration,
  type RegisterIdentityReturnType,
  registerIdentity,
} from './identity/registerIdentity.js'
export { buildRegistrationFile, fromDataUri, toDataUri } from './identity/registrationFile.js'
export * from './identity/types.js'
export { type CollectMetricsReturnType, collectMetrics } from './metrics/collectMetrics.js'
export { countEvents, type EventCounter } from './metrics/countEvents.js'
export type { MetricFamily, MetricSample } from './metrics/metricFamily.js'
export {
  type ConfirmSafeTransactionReturnType,
  confirmSafeTransaction,
} from './multisig/confirmSafeTransaction.js'
export { type DeploySafeReturnType, deploySafe } from './multisig/deploySafe.js'
export { type GetSafeReturnType, getSafe } from './multisig/getSafe.js'
export * from './multisig/multisigSchemas.js'
export type {
  MultisigWalletRecord,
  SafeProposalRecord,
  SafeProposalStatus,
  SafeSignature,
} from './multisig/multisigTypes.js'
export { type SafeProposalView, toProposalView } from './multisig/proposalView.js'
export { proposeSafeTransaction } from './multisig/proposeSafeTransaction.js'
export { readSafe, type SafeState } from './multisig/readSafe.js'
export { recoverSafeSigner } from './multisig/recoverSafeSigner.js'
export { safeAbi, safeProxyFactoryAbi } from './multisig/safeAbi.js'
export {
  newSafeTx,
  type StoredSafeTx,
  safeTxHash,
  safeTxTypedData,
  safeTxTypes,
} from './multisig/safeTransaction.js'
export { defaultTenantRules } from './policy/defaultRules.js'
export { type EvaluatePolicyParameters, evaluatePolicy } from './policy/evaluatePolicy.js'
export { isContractCall } from './policy/isContractCall.js'
export { lookbackMs } from './policy/lookbackMs.js'
export {
  getPolicyRules,
  type PolicyRulesReturnType,
  type UpdatePolicyParameters,
  updatePolicyRules,
  updatePolicySchema,
} from './policy/managePolicy.js'
export { matchesAsset } from './policy/matchesAsset.js'
export { type PolicyRecord, scopedRules, tenantRules, walletRules } from './policy/policyStore.js'
export * from './policy/ruleSchemas.js'
export { type RulesPolicyEngineOptions, rulesPolicyEngine } from './policy/rulesPolicyEngine.js'
export * from './policy/types.js'
export { maxRulesPerScope, validateRules } from './policy/validateRules.js'
export * from './principals/apiKeySchemas.js'
export * from './principals/apiKeyTypes.js'
export { authenticate } from './principals/authenticate.js'
export {
  type BootstrapAdminParameters,
  type BootstrapAdminReturnType,
  bootstrapAdmin,
} from './principals/bootstrapAdmin.js'
export { type CreateApiKeyReturnType, createApiKey, insertApiKey } from './principals/createApiKey.js'
export { type CreateTenantReturnType, createTenant } from './principals/createTenant.js'
export { apiKeyPrefix, displayPrefix, generateApiKey, hashApiKey } from './principals/hashApiKey.js'
export { listApiKeys } from './principals/listApiKeys.js'
export type { PrincipalsContext } from './principals/principalsContext.js'
export { revokeApiKey } from './principals/revokeApiKey.js'
export { defaultTenantId, localPrincipal, type Principal, type Role, roles } from './principals/types.js'
export { parseInput } from './schemas/parseInput.js'
export {
  addressSchema,
  decimalAmountSchema,
  durationSchema,
  hexDataSchema,
  isValidAddress,
} from './schemas/primitives.js'
export { type AgentWalletSession, createSession } from './session.js'
export { type EventListenerSet, eventListeners } from './storage/eventListeners.js'
export { type KeyedMutex, keyedMutex, type Release } from './storage/keyedMutex.js'
export {
  type MemorySnapshot,
  type MemoryStorage,
  type MemoryStorageOptions,
  memoryStorage,
} from './storage/memoryStorage.js'
export { compareValues, matchesQuery, queryRecords } from './storage/queryRecords.js'
export * from './storage/types.js'
export { walletLockKey, withLock } from './storage/withLock.js'
export {
  committedPageOptions,
  overlayCount,
  overlayPage,
  type PendingWrites,
} from './storage/writeOverlay.js'
export { awaitConfirmed } from './transactions/awaitConfirmed.js'
export {
  type EstimateGasParameters,
  type EstimateGasReturnType,
  estimateGas,
} from './transactions/estimateGas.js'
export { evaluateIntent, intentOf } from './transactions/evaluateIntent.js'
export {
  findTransaction,
  type GetTransactionReturnType,
  getTransaction,
} from './transactions/getTransaction.js'
export { historyQuerySchema, type ListHistoryParameters, listHistory } from './transactions/listHistory.js'
export { type GasSettings, prepareGas } from './transactions/prepareGas.js'
export { type SendParameters, sendSchema } from './transactions/sendSchema.js'
export { sendTransaction } from './transactions/sendTransaction.js'
export { startTracker, type Tracker } from './transactions/startTracker.js'
export {
  blockedError,
  type IntentDraft,
  type SubmitOptions,
  type SubmitResult,
  submitIntent,
} from './transactions/submitIntent.js'
export { explorerLink, type TransactionView, toTransactionView } from './transactions/toTransactionView.js'
export { trackTransactions } from './transactions/trackTransactions.js'
export * from './transactions/types.js'
export { waitForTransaction } from './transactions/waitForTransaction.js'
export {
  type AmountIssue,
  amountIssueMessage,
  describeAmountIssue,
  formatAmount,
  parseAmount,
} from './utils/amounts.js'
export { maxDurationMs, parseDuration } from './utils/duration.js'
export { aesGcmOpen, aesGcmSeal, type SealedBox } from './vault/aesGcm.js'
export {
  type AssertMasterKeyParameters,
  assertMasterKey,
  type MasterKeyRotationRecord,
  masterKeyRotationCollection,
} from './vault/assertMasterKey.js'
export { openEnvelope, rewrapEnvelope, sealEnvelope } from './vault/envelope.js'
export { assertMnemonic, type HdWallet, hdWalletFromMnemonic } from './vault/hdWallet.js'
export { type LoadOrCreateMasterKeyParameters, loadOrCreateMasterKey } from './vault/loadOrCreateMasterKey.js'
export type { EnvelopeKeyRecord, HdKeyRecord, LocalKeyRecord } from './vault/localKeyRecord.js'
export { type LocalKeyVault, type LocalKeyVaultOptions, localKeyVault } from './vault/localKeyVault.js'
export { keyFingerprint, masterKeyEnvVar, masterKeyFromEnv, parseMasterKey } from './vault/masterKey.js'
export { type MemoryKeyVaultOptions, memoryKeyVault } from './vault/memoryKeyVault.js'
export {
  type RotateMasterKeyErrorType,
  type RotateMasterKeyFailure,
  type RotateMasterKeyParameters,
  type RotateMasterKeyReturnType,
  rotateMasterKey,
} from './vault/rotateMasterKey.js'
export { type SealedSecret, seal, unseal } from './vault/seal.js'
export { type SecretSealer, secretSealer } from './vault/secretSealer.js'
export { storageKeyRecordStore, vaultKeysCollection } from './vault/storageKeyRecordStore.js'
export * from './vault/types.js'
export { parsePrivateKey, vaultAddressId } from './vault/vaultAddress.js'
export { actingWallet } from './wallets/actingWallet.js'
export { createWallet, importWallet } from './wallets/createWallet.js'
export { canSee, findWallet } from './wallets/findWallet.js'
export {
  balanceQuerySchema,
  type GetBalanceParameters,
  type GetBalanceReturnType,
  getBalance,
  type TokenBalance,
} from './wallets/getBalance.js'
export {
  type ListWalletsParameters,
  listWalletPage,
  listWallets,
  walletListQuerySchema,
} from './wallets/listWallets.js'
export * from './wallets/types.js'
export * from './wallets/walletSchemas.js'
export { assertPublicTarget, isPrivateAddress } from './webhooks/assertPublicTarget.js'
export { computeBackoff, isRetryable } from './webhooks/computeBackoff.js'
export { listWebhookDeliveries, retryWebhookDelivery } from './webhooks/deliveries.js'
export { deliverWebhooks } from './webhooks/deliverWebhooks.js'
export {
  deleteWebhook,
  listWebhooks,
  subscribeWebhook,
  toWebhookSubscription,
  type WebhookSubscription,
} from './webhooks/manageWebhooks.js'
export { sealLegacyWebhookSecrets } from './webhooks/sealLegacyWebhookSecrets.js'
export { newWebhookSecret, signWebhook } from './webhooks/signWebhook.js'
export { startWebhookWorker, type WebhookWorker } from './webhooks/startWebhookWorker.js'
export * from './webhooks/types.js'
export { defaultWebhookOptions, type WebhookOptions } from './webhooks/webhookOptions.js'
export * from './webhooks/webhookSchemas.js'
export { openWebhookSecret, resealWebhookSecret, sealWebhookSecret } from './webhooks/webhookSecret.js'

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
export { eventListeners, type EventListenerSet } from './storage/eventListeners.js'
export {
  memoryStorage,
  type MemorySnapshot,
  type MemoryStorage,
  type MemoryStorageOptions,
} from './storage/memoryStorage.js'
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
export { defaultTenantId, localPrincipal, roles, type Principal, type Role } from './principals/types.js'
export type { AgentWalletContext, CoreOptions } from './context.js'
export { createAgentWallet, type AgentWallet, type AgentWalletConfig } from './createAgentWallet.js'
export { createSession, type AgentWalletSession } from './session.js'
export { viemChainProvider, type ChainConfig, type ViemChainProviderOptions } from './chain/viemChainProvider.js'
export { publicChains, type KnownChain } from './chain/publicChains.js'
export { resolveAsset } from './chain/resolveAsset.js'
export { isTransportError, toChainError } from './chain/toChainError.js'
export { appendEvent, toDomainEvent } from './events/appendEvent.js'
export { withLock, walletLockKey } from './storage/withLock.js'
export { parseInput } from './schemas/parseInput.js'
export * from './wallets/types.js'
export * from './wallets/walletSchemas.js'
export { createWallet, importWallet } from './wallets/createWallet.js'
export { canSee, findWallet } from './wallets/findWallet.js'
export { listWallets } from './wallets/listWallets.js'
export { balanceQuerySchema, getBalance, type GetBalanceParameters, type GetBalanceReturnType, type TokenBalance } from './wallets/getBalance.js'
export * from './transactions/types.js'
export { sendSchema, type SendParameters } from './transactions/sendSchema.js'
export { sendTransaction } from './transactions/sendTransaction.js'
export { submitIntent, blockedError, type IntentDraft, type SubmitOptions, type SubmitResult } from './transactions/submitIntent.js'
export { evaluateIntent, intentOf } from './transactions/evaluateIntent.js'
export { estimateGas, type EstimateGasParameters, type EstimateGasReturnType } from './transactions/estimateGas.js'
export { findTransaction, getTransaction, type GetTransactionReturnType } from './transactions/getTransaction.js'
export { historyQuerySchema, listHistory, type ListHistoryParameters } from './transactions/listHistory.js'
export { explorerLink, toTransactionView, type TransactionView } from './transactions/toTransactionView.js'
export { waitForTransaction } from './transactions/waitForTransaction.js'
export { trackTransactions } from './transactions/trackTransactions.js'
export { startTracker, type Tracker } from './transactions/startTracker.js'
export { prepareGas, type GasSettings } from './transactions/prepareGas.js'
export * from './approvals/types.js'
export { approveApproval, expireApprovals, rejectApproval, type ResolveApprovalReturnType } from './approvals/resolveApproval.js'
export { getApproval, listApprovals, listApprovalsSchema, type ListApprovalsParameters } from './approvals/listApprovals.js'
export { getPolicyRules, updatePolicyRules, updatePolicySchema, type PolicyRulesReturnType, type UpdatePolicyParameters } from './policy/managePolicy.js'
export { evaluatePolicy, type EvaluatePolicyParameters } from './policy/evaluatePolicy.js'
export { scopedRules, tenantRules, walletRules, type PolicyRecord } from './policy/policyStore.js'
export { requestHash } from './idempotency/requestHash.js'
export { withIdempotency, type IdempotencyOptions } from './idempotency/withIdempotency.js'
export type { IdempotencyRecord } from './idempotency/types.js'
export * from './principals/apiKeyTypes.js'
export * from './principals/apiKeySchemas.js'
export { apiKeyPrefix, displayPrefix, generateApiKey, hashApiKey } from './principals/hashApiKey.js'
export type { PrincipalsContext } from './principals/principalsContext.js'
export { createApiKey, insertApiKey, type CreateApiKeyReturnType } from './principals/createApiKey.js'
export { authenticate } from './principals/authenticate.js'
export { listApiKeys } from './principals/listApiKeys.js'
export { revokeApiKey } from './principals/revokeApiKey.js'
export { createTenant, type CreateTenantReturnType } from './principals/createTenant.js'
export { bootstrapAdmin, type BootstrapAdminParameters, type BootstrapAdminReturnType } from './principals/bootstrapAdmin.js'
export * from './identity/types.js'
export { identityRegistryAbi, agentWalletSetTypes } from './identity/identityRegistryAbi.js'
export { agentIdSchema, identityQuerySchema, registerIdentitySchema, type RegisterIdentityParameters } from './identity/identitySchemas.js'
export { buildRegistrationFile, fromDataUri, toDataUri } from './identity/registrationFile.js'
export { howToVerifyIdentityProof, identityProofDomain, identityProofTypes, signIdentityProof, type IdentityProof } from './identity/identityProof.js'
export { registerIdentity, type RegisterIdentityReturnType } from './identity/registerIdentity.js'
export { getIdentity, type GetIdentityReturnType, type IdentityStatus } from './identity/getIdentity.js'
export { identitiesOfWallet, listIdentities, type ListIdentitiesReturnType } from './identity/listIdentities.js'
export * from './ens/types.js'
export { ensControllerAbi, ensRegistryAbi, ensResolverAbi, ensReverseRegistrarAbi } from './ens/ensAbis.js'
export { minEthLabelLength, parseEnsName, parseEthName, type ParsedEnsName, type ParsedEthName } from './ens/parseEnsName.js'
export {
  checkEnsOptionsSchema,
  registerEnsSchema,
  resolveEnsOptionsSchema,
  type CheckEnsNameOptions,
  type RegisterEnsNameParameters,
  type ResolveEnsNameOptions,
} from './ens/ensSchemas.js'
export { checkEnsName, type CheckEnsNameReturnType } from './ens/checkEnsName.js'
export { resolveEnsName, reverseEnsName, type ResolveEnsNameReturnType, type ReverseEnsNameReturnType } from './ens/resolveEnsName.js'
export { registerEnsName } from './ens/registerEnsName.js'
export { getEnsRegistration, listEnsNames, type ListEnsNamesReturnType } from './ens/listEnsNames.js'
export { resumeEnsRegistrations, stopEnsRegistrations } from './ens/resumeEnsRegistrations.js'
export * from './webhooks/types.js'
export * from './webhooks/webhookSchemas.js'
export { defaultWebhookOptions, type WebhookOptions } from './webhooks/webhookOptions.js'
export { newWebhookSecret, signWebhook } from './webhooks/signWebhook.js'
export { assertPublicTarget, isPrivateAddress } from './webhooks/assertPublicTarget.js'
export { computeBackoff, isRetryable } from './webhooks/computeBackoff.js'
export {
  deleteWebhook,
  listWebhooks,
  subscribeWebhook,
  toWebhookSubscription,
  type WebhookSubscription,
} from './webhooks/manageWebhooks.js'
export { listWebhookDeliveries, retryWebhookDelivery } from './webhooks/deliveries.js'
export { deliverWebhooks } from './webhooks/deliverWebhooks.js'
export { startWebhookWorker, type WebhookWorker } from './webhooks/startWebhookWorker.js'
export * from './defi/defiSchemas.js'
export type { QuoteRequest, QuoteSource, SwapCall, SwapQuote } from './defi/quoteSource.js'
export { isNativeToken, nativeTokenAddress, resolveSwapToken, type SwapToken } from './defi/resolveSwapToken.js'
export { uniswapV2QuoteSource } from './defi/uniswapV2QuoteSource.js'
export { defaultSlippageBps, quoteSwap, type QuoteSwapReturnType, type QuoteView, type TokenView } from './defi/quoteSwap.js'
export { swap, type SwapReturnType } from './defi/swap.js'
export { stake, stakingProtocols, type StakeReturnType, type StakingProtocol } from './defi/stake.js'
export { getPrices, type GetPricesReturnType, type PriceSource, type TokenPrice } from './defi/getPrices.js'
export { actingWallet } from './wallets/actingWallet.js'
export { awaitConfirmed } from './transactions/awaitConfirmed.js'
export * from './multisig/multisigSchemas.js'
export type { MultisigWalletRecord, SafeProposalRecord, SafeProposalStatus, SafeSignature } from './multisig/multisigTypes.js'
export { safeAbi, safeProxyFactoryAbi } from './multisig/safeAbi.js'
export { newSafeTx, safeTxHash, safeTxTypedData, safeTxTypes, type StoredSafeTx } from './multisig/safeTransaction.js'
export { recoverSafeSigner } from './multisig/recoverSafeSigner.js'
export { readSafe, type SafeState } from './multisig/readSafe.js'
export { toProposalView, type SafeProposalView } from './multisig/proposalView.js'
export { deploySafe, type DeploySafeReturnType } from './multisig/deploySafe.js'
export { proposeSafeTransaction } from './multisig/proposeSafeTransaction.js'
export { confirmSafeTransaction, type ConfirmSafeTransactionReturnType } from './multisig/confirmSafeTransaction.js'
export { getSafe, type GetSafeReturnType } from './multisig/getSafe.js'

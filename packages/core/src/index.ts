export { authorize, mayCall } from './api/authorize.js'
export { callOperation } from './api/callOperation.js'
export { bindOperation, type OperationAction, type OperationDeclaration } from './api/defineOperation.js'
export {
  type Operation,
  type OperationName,
  type OperationNamed,
  operationList,
  operations,
} from './api/operations.js'
export { type OperationMethod, type OperationMethods, operationMethods } from './api/sessionMethods.js'
export {
  approvalSchema,
  type ListApprovalsParameters,
  listApprovalsSchema,
  type ResolveApprovalReturnType,
  resolveApprovalAnswerSchema,
} from './approvals/approvalSchemas.js'
export { expireApprovals } from './approvals/resolveApproval.js'
export { type ResolveApprovalParameters, resolveApprovalSchema } from './approvals/resolveApprovalSchema.js'
export * from './approvals/types.js'
export { appendAudit, writeAuditEntry } from './audit/appendAudit.js'
export {
  type AnchoredHead,
  anchorTenantTag,
  decodeAnchorData,
  encodeAnchorData,
} from './audit/auditAnchorData.js'
export { checkpointMessage, genesisHash, hashAuditBody, nextChainHash } from './audit/auditHashes.js'
export { fromAuditJson, toAuditJson } from './audit/auditJson.js'
export { auditLines } from './audit/auditLines.js'
export type { AuditOptions } from './audit/auditOptions.js'
export {
  auditEntrySchema,
  type ListAuditReturnType,
  listAuditAnswerSchema,
  listAuditSchema,
} from './audit/auditSchemas.js'
export { type AuditSigner, auditSigner, verifyAuditSignature } from './audit/auditSigner.js'
export { auditStream, tenantOfAuditStream } from './audit/auditStream.js'
export {
  type CheckedTimestamp,
  checkTimestampToken,
  requestTimestamp,
  TimestampError,
  type TimestampPayload,
  timestampedMessage,
} from './audit/auditTimestamps.js'
export { type AuditVerifier, auditVerifier } from './audit/auditVerifier.js'
export { canonicalJson } from './audit/canonicalJson.js'
export { type ChainHead, checkpointAudit } from './audit/checkpointAudit.js'
export { exportAudit } from './audit/exportAudit.js'
export { listAudit } from './audit/listAudit.js'
export {
  type ChainAnchor,
  type ReadChainAnchorsParameters,
  readChainAnchors,
} from './audit/readChainAnchors.js'
export type { DecisionEngine } from './audit/rerunDecision.js'
export { type SealContext, sealedAuditLines, sealTrail } from './audit/sealTrail.js'
export * from './audit/types.js'
export type {
  AuditProblem,
  AuditProblemCode,
  AuditVerification,
  ExternalAnchor,
  VerifyAuditOptions,
} from './audit/verificationTypes.js'
export { verifyAuditStream, verifyAuditTrail } from './audit/verifyAuditTrail.js'
export { anchorAuditHead } from './auditAnchors/anchorAuditHead.js'
export type { AuditAnchorOptions, AuditTimestampOptions } from './auditAnchors/auditAnchorOptions.js'
export * from './bundler/jsonRpcBundler.js'
export * from './bundler/maxGasCostOf.js'
export * from './bundler/sponsoredGasSince.js'
export * from './bundler/toBundlerError.js'
export * from './bundler/types.js'
export * from './bundler/verifyingPaymaster.js'
export { devChainIds, isDevChain } from './chain/devChainIds.js'
export { ensControllerAbi, ensRegistryAbi, ensResolverAbi, ensReverseRegistrarAbi } from './chain/ensAbis.js'
export { agentWalletSetTypes, identityRegistryAbi } from './chain/identityRegistryAbi.js'
export { type KnownChain, publicChains } from './chain/publicChains.js'
export { type FeedRound, isValidRound, readPriceFeed } from './chain/readPriceFeed.js'
export { resolveAsset } from './chain/resolveAsset.js'
export { safeAbi, safeProxyFactoryAbi } from './chain/safeAbi.js'
export { type SolanaChainConfig, solanaChainHandle } from './chain/solanaChainHandle.js'
export { isTransportError, toChainError } from './chain/toChainError.js'
export * from './chain/types.js'
export { type PriceFeedRef, usdPriceFeedOf } from './chain/usdPriceFeedOf.js'
export {
  type ChainConfig,
  type EvmChainConfig,
  type ViemChainProviderOptions,
  viemChainProvider,
} from './chain/viemChainProvider.js'
export type { AgentWalletContext, CoreOptions } from './context.js'
export { type AgentWallet, type AgentWalletConfig, createAgentWallet } from './createAgentWallet.js'
export * from './defi/defiSchemas.js'
export type { GetPricesReturnType, PriceSource, TokenPrice } from './defi/getPrices.js'
export type { QuoteRequest, QuoteSource, SwapCall, SwapQuote } from './defi/quoteSource.js'
export {
  defaultSlippageBps,
  type QuoteSwapReturnType,
  type QuoteView,
  type TokenView,
} from './defi/quoteSwap.js'
export {
  isNativeToken,
  nativeTokenAddress,
  resolveSwapToken,
  type SwapToken,
} from './defi/resolveSwapToken.js'
export { type StakeReturnType, type StakingProtocol, stakingProtocols } from './defi/stake.js'
export type { SwapReturnType } from './defi/swap.js'
export type { SwapOperation, SwapStatus, SwapStep } from './defi/swapTypes.js'
export { uniswapV2QuoteSource } from './defi/uniswapV2QuoteSource.js'
export { uniswapV3FeeTiers, uniswapV3QuoteSource } from './defi/uniswapV3QuoteSource.js'
export { type ZeroExQuoteSourceOptions, zeroExQuoteSource } from './defi/zeroExQuoteSource.js'
export * from './devnet/devnetSchemas.js'
export { devnetChainIds, fundFromFaucet } from './devnet/fundFromFaucet.js'
export { decodeEffects } from './effects/decodeEffects.js'
export { effectsDiffer } from './effects/effectsDiffer.js'
export { type EffectLog, type EffectsOfLogsOptions, effectsOfLogs } from './effects/effectsOfLogs.js'
export { fromStoredEffects } from './effects/fromStoredEffects.js'
export { mergeEffects } from './effects/mergeEffects.js'
export { type PredictedCall, predictEffects } from './effects/predictEffects.js'
export { receiptEffects } from './effects/receiptEffects.js'
export { simulateEffects } from './effects/simulateEffects.js'
export { toStoredEffects } from './effects/toStoredEffects.js'
export * from './effects/types.js'
export type { CheckEnsNameReturnType } from './ens/checkEnsName.js'
export * from './ens/ensSchemas.js'
export type { ListEnsNamesReturnType } from './ens/listEnsNames.js'
export {
  minEthLabelLength,
  type ParsedEnsName,
  type ParsedEthName,
  parseEnsName,
  parseEthName,
} from './ens/parseEnsName.js'
export type {
  ResolveEnsNameReturnType,
  ReverseEnsNameReturnType,
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
  UnsupportedChainFamilyError,
  ValidationError,
} from './errors/errors.js'
export { appendEvent, toDomainEvent } from './events/appendEvent.js'
export { type DomainEvent, EventBus, type EventListeners, type EventPayloads } from './events/eventBus.js'
export {
  type CheckHealthOptions,
  checkHealth,
  type HealthReport,
  healthReportSchema,
  type ProbeError,
} from './health/checkHealth.js'
export { requestHash } from './idempotency/requestHash.js'
export { type IdempotencyRecord, idempotencyRecordId } from './idempotency/types.js'
export { type IdempotencyOptions, withIdempotency } from './idempotency/withIdempotency.js'
export {
  type AdvanceIdentityOptions,
  advanceIdentityRegistration,
  resumeIdentityRegistrations,
} from './identity/advanceIdentityRegistration.js'
export type { GetIdentityReturnType, IdentityStatus } from './identity/getIdentity.js'
export {
  howToVerifyIdentityProof,
  type IdentityProof,
  identityProofDomain,
  identityProofTypes,
  signIdentityProof,
} from './identity/identityProof.js'
export * from './identity/identitySchemas.js'
export type { ListIdentitiesReturnType } from './identity/listIdentities.js'
export type { RegisterIdentityReturnType } from './identity/registerIdentity.js'
export { buildRegistrationFile, fromDataUri, toDataUri } from './identity/registrationFile.js'
export * from './identity/types.js'
export { blockedError } from './intents/blockedError.js'
export * from './intents/types.js'
export { type CollectMetricsReturnType, collectMetrics } from './metrics/collectMetrics.js'
export { countEvents, type EventCounter } from './metrics/countEvents.js'
export type { MetricFamily, MetricSample } from './metrics/metricFamily.js'
export { type SkippedStep, type SkippedSteps, skippedSteps } from './metrics/skippedSteps.js'
export type { ConfirmSafeTransactionReturnType } from './multisig/confirmSafeTransaction.js'
export type { DeploySafeReturnType } from './multisig/deploySafe.js'
export type { GetSafeReturnType } from './multisig/getSafe.js'
export * from './multisig/multisigSchemas.js'
export type {
  MultisigWalletRecord,
  SafeProposalRecord,
  SafeProposalStatus,
  SafeSignature,
} from './multisig/multisigTypes.js'
export { type SafeProposalView, toProposalView } from './multisig/proposalView.js'
export { readSafe, type SafeState } from './multisig/readSafe.js'
export { recoverSafeSigner } from './multisig/recoverSafeSigner.js'
export {
  newSafeTx,
  type StoredSafeTx,
  safeTxHash,
  safeTxTypedData,
  safeTxTypes,
} from './multisig/safeTransaction.js'
export { unsignedPaymentWaitMs } from './payments/signedAuthorization.js'
export { countedStatuses } from './policy/countedStatuses.js'
export { counterpartiesOf } from './policy/counterpartiesOf.js'
export { defaultTenantRules } from './policy/defaultRules.js'
export { evaluateIntent, type IntentDecision, intentOf } from './policy/evaluateIntent.js'
export { isContractCall } from './policy/isContractCall.js'
export { lookbackMs } from './policy/lookbackMs.js'
export { matchesAsset } from './policy/matchesAsset.js'
export { needsUsd } from './policy/needsUsd.js'
export {
  type PolicyRulesReturnType,
  policyDecisionSchema,
  policyRuleSchema,
  policyRulesQuerySchema,
  policyRulesSchema,
  type UpdatePolicyParameters,
  updatePolicySchema,
} from './policy/policySchemas.js'
export { type PolicyRecord, scopedRules, tenantRules, walletRules } from './policy/policyStore.js'
export {
  defaultPriceFeedMaxAge,
  maxAgeSecondsOf,
  type PriceFeedMaxAge,
  resolvePriceFeedMaxAge,
} from './policy/priceFeedMaxAge.js'
export * from './policy/ruleSchemas.js'
export { type ScreenedVerdict, screenCounterparties } from './policy/rules/screenCounterparties.js'
export { type RulesPolicyEngineOptions, rulesPolicyEngine } from './policy/rulesPolicyEngine.js'
export { hasBlock, screenIntent } from './policy/screenIntent.js'
export { screeningQuery } from './policy/screeningQuery.js'
export { type SponsorshipDecision, sponsorshipOf } from './policy/sponsorshipOf.js'
export * from './policy/types.js'
export { formatUsd, parseUsd, usdDecimals, usdValueOf } from './policy/usdValueOf.js'
export { maxRulesPerScope, validateRules } from './policy/validateRules.js'
export { type UsdPriceMemo, valueInUsd } from './policy/valueInUsd.js'
export * from './principals/apiKeySchemas.js'
export { type Role, roles } from './principals/apiKeySchemas.js'
export * from './principals/apiKeyTypes.js'
export { authenticate } from './principals/authenticate.js'
export type { BootstrapAdminConflictReason } from './principals/bootstrapAdmin.js'
export {
  type BootstrapAdminParameters,
  type BootstrapAdminReturnType,
  bootstrapAdmin,
} from './principals/bootstrapAdmin.js'
// The key actions are exported for operator tooling (the CLI), which calls them through `callOperation`.
export { type CreateApiKeyReturnType, createApiKey, insertApiKey } from './principals/createApiKey.js'
export type { CreateTenantReturnType } from './principals/createTenant.js'
export { apiKeyPrefix, displayPrefix, generateApiKey, hashApiKey } from './principals/hashApiKey.js'
export { isApiKeyActive } from './principals/isApiKeyActive.js'
export { listApiKeys } from './principals/listApiKeys.js'
export { markKeyRevoked } from './principals/markKeyRevoked.js'
export type { PrincipalsContext } from './principals/principalsContext.js'
export { revokeApiKey } from './principals/revokeApiKey.js'
export { defaultTenantId, localPrincipal, type Principal } from './principals/types.js'
export {
  type RotateMasterKeyErrorType,
  type RotateMasterKeyFailure,
  type RotateMasterKeyParameters,
  type RotateMasterKeyReturnType,
  rotateMasterKey,
} from './rotateMasterKey.js'
export { type AmountIssue, amountIssueMessage, describeAmountIssue } from './schemas/amountIssues.js'
export {
  type Caller,
  type CallOptions,
  chainErrors,
  commonErrors,
  defineContracts,
  type HttpBinding,
  type HttpMethod,
  intentErrors,
  type OperationContract,
  type OperationContractBody,
  pathParametersOf,
  toolNameOf,
} from './schemas/defineContract.js'
export {
  type EventName,
  eventNames,
  isAdminOnlyEvent,
  toCanonicalEventName,
  toWebhookEventName,
  type WebhookEventName,
} from './schemas/eventNames.js'
export { out } from './schemas/out.js'
export { maxDurationMs, parseDuration } from './schemas/parseDuration.js'
export { parseInput } from './schemas/parseInput.js'
export {
  addressSchema,
  decimalAmountSchema,
  displayTextSchema,
  durationSchema,
  hexDataSchema,
  isValidAddress,
} from './schemas/primitives.js'
export { type CachedScreeningOptions, cachedScreening } from './screening/cachedScreening.js'
export { listScreening, listSourceName } from './screening/listScreening.js'
export { parseScreeningFile, type ScreeningFileRow } from './screening/parseScreeningFile.js'
export { type ScreenedAddress, screenedAddress } from './screening/screenedAddress.js'
export type { Screening } from './screening/screening.js'
export { type ScreeningCounts, screeningCounts } from './screening/screeningCounts.js'
export type { ScreeningEntryRecord, ScreeningListRecord } from './screening/screeningRecords.js'
export { ScreeningUnavailableError } from './screening/screeningUnavailableError.js'
export * from './screening/types.js'
export { type AgentWalletSession, createSession } from './session.js'
export {
  buildUserOperation,
  dummySignature,
  type PaymasterFields,
} from './smartAccounts/buildUserOperation.js'
export { deleGatorAbi } from './smartAccounts/deleGatorAbi.js'
export { type Caveat, type Delegation, delegationTypes, rootAuthority } from './smartAccounts/delegation.js'
export { delegationHash } from './smartAccounts/delegationHash.js'
export { delegationManagerAbi } from './smartAccounts/delegationManagerAbi.js'
export { gasDepositCall } from './smartAccounts/gasDepositCall.js'
export { periodAllowanceAbi } from './smartAccounts/periodAllowanceAbi.js'
export {
  type CompiledPermissions,
  type OffChainRule,
  permissionsFromRules,
} from './smartAccounts/permissionsFromRules.js'
export { type AllowancesLeft, readAllowancesLeft } from './smartAccounts/readAllowancesLeft.js'
export { redeemCalldata } from './smartAccounts/redeemCalldata.js'
export { type SessionDelegations, sessionDelegations } from './smartAccounts/sessionDelegations.js'
export type { PeriodicAllowance, SessionPermissions } from './smartAccounts/sessionPermissions.js'
export { signDelegation } from './smartAccounts/signDelegation.js'
export { signUpgradeAuthorization } from './smartAccounts/signUpgradeAuthorization.js'
export { type DeleGatorKind, signUserOperation } from './smartAccounts/signUserOperation.js'
export { simpleFactoryAbi } from './smartAccounts/simpleFactoryAbi.js'
export type { SmartAccountCall } from './smartAccounts/smartAccountCall.js'
export { type SmartWalletDeployment, smartWalletDeployment } from './smartAccounts/smartWalletDeployment.js'
export { revokeCall, revokeSessionCalls, walletCalldata } from './smartAccounts/walletCalls.js'
export { deployByRelayer } from './smartWallets/deployByRelayer.js'
export {
  estimateUserOperationGas,
  simulatedVerificationGas,
} from './smartWallets/estimateUserOperationGas.js'
export { relayerAccount } from './smartWallets/relayerAccount.js'
export { relayerBundler } from './smartWallets/relayerBundler.js'
export {
  erc1271Abi,
  erc1271MagicValue,
  signAsWallet,
  signedDigest,
  type WalletSignatureScheme,
  type WalletSigner,
} from './smartWallets/signAsWallet.js'
export { handleOpsData, simulateHandleOps } from './smartWallets/simulateHandleOps.js'
export * from './smartWallets/types.js'
export { userOperationReceiptOf } from './smartWallets/userOperationReceiptOf.js'
export {
  type DecodeContext,
  type Decoded,
  decodeSolanaEffects,
  type TokenAccountFacts,
} from './solana/decodeSolanaEffects.js'
export { predictSolanaEffects } from './solana/predictSolanaEffects.js'
export { type SignedSolanaTransaction, signSolanaTransaction } from './solana/signSolanaTransaction.js'
export { type SolanaLanding, solanaLanding } from './solana/solanaLanding.js'
export { type SolanaSend, solanaSendInstructions } from './solana/solanaSendInstructions.js'
export { vaultTransactionSigner } from './solana/vaultTransactionSigner.js'
export { startTracker, type Tracker } from './startTracker.js'
export { type EventListenerSet, eventListeners } from './storage/eventListeners.js'
export { type KeyedMutex, keyedMutex, type Release } from './storage/keyedMutex.js'
export {
  type MemorySnapshot,
  type MemoryStorage,
  type MemoryStorageOptions,
  memoryStorage,
} from './storage/memoryStorage.js'
export { pendingEvent } from './storage/pendingEvent.js'
export { compareValues, matchesQuery, queryRecords } from './storage/queryRecords.js'
export * from './storage/types.js'
export { walletLockKey, withLock } from './storage/withLock.js'
export {
  committedPageOptions,
  overlayCount,
  overlayPage,
  type PendingWrites,
} from './storage/writeOverlay.js'
export { toApprovalSummary } from './transactions/approvalSummary.js'
export { awaitConfirmed } from './transactions/awaitConfirmed.js'
export { findTransaction } from './transactions/getTransaction.js'
export { prepareGas } from './transactions/prepareGas.js'
export { toSendAnswer, viewOf } from './transactions/sendAnswer.js'
export { type SendInput, type SendParameters, sendSchema } from './transactions/sendSchema.js'
export { type SubmitOptions, type SubmitResult, submitIntent } from './transactions/submitIntent.js'
export { explorerLink, toTransactionView } from './transactions/toTransactionView.js'
export { trackTransactions } from './transactions/trackTransactions.js'
export {
  type ApprovalSummary,
  approvalSummarySchema,
  type EstimateGasReturnType,
  estimateGasAnswerSchema,
  type GetTransactionReturnType,
  getTransactionSchema,
  historyQuerySchema,
  type ListHistoryParameters,
  type SendAnswer,
  sendAnswerSchema,
  type TransactionView,
  transactionAnswerSchema,
  transactionField,
  transactionStatuses,
  transactionViewSchema,
  waitForTransactionAnswerSchema,
  waitForTransactionSchema,
} from './transactions/transactionSchemas.js'
export * from './transactions/types.js'
export { waitForFinalStatus } from './transactions/waitForTransaction.js'
export { formatAmount, parseAmount } from './utils/amounts.js'
export { lockDataDir } from './utils/lockDataDir.js'
export { aesGcmOpen, aesGcmSeal, type SealedBox } from './vault/aesGcm.js'
export {
  type AssertMasterKeyParameters,
  assertMasterKey,
  type MasterKeyRotationRecord,
  masterKeyRotationCollection,
} from './vault/assertMasterKey.js'
export {
  type CheckedEd25519SignatureParameters,
  checkedEd25519Signature,
} from './vault/checkedEd25519Signature.js'
export { type CheckedSignatureParameters, checkedSignature } from './vault/checkedSignature.js'
export {
  type Ed25519KeyPair,
  ed25519Address,
  ed25519KeyPair,
  ed25519PublicKey,
} from './vault/ed25519Key.js'
export { openEnvelope, rewrapEnvelope, sealEnvelope } from './vault/envelope.js'
export { assertMnemonic, type HdWallet, hdWalletFromMnemonic } from './vault/hdWallet.js'
export { type LoadOrCreateMasterKeyParameters, loadOrCreateMasterKey } from './vault/loadOrCreateMasterKey.js'
export {
  type LocalEd25519Keys,
  type LocalEd25519KeysParameters,
  localEd25519Keys,
} from './vault/localEd25519Keys.js'
export type { EnvelopeKeyRecord, HdKeyRecord, LocalKeyRecord } from './vault/localKeyRecord.js'
export { type LocalKeyVault, type LocalKeyVaultOptions, localKeyVault } from './vault/localKeyVault.js'
export { keyFingerprint, masterKeyEnvVar, masterKeyFromEnv, parseMasterKey } from './vault/masterKey.js'
export { memoryEd25519Keys } from './vault/memoryEd25519Keys.js'
export { type MemoryKeyVaultOptions, memoryKeyVault } from './vault/memoryKeyVault.js'
export { type ParseSolanaSecretKeyReturnType, parseSolanaSecretKey } from './vault/parseSolanaSecretKey.js'
export { type SealedSecret, seal, unseal } from './vault/seal.js'
export { type SecretSealer, secretSealer } from './vault/secretSealer.js'
export { signerFromSign } from './vault/signerFromSign.js'
export { storageKeyRecordStore, vaultKeysCollection } from './vault/storageKeyRecordStore.js'
export * from './vault/types.js'
export { parsePrivateKey, vaultAddressId } from './vault/vaultAddress.js'
export { actingWallet } from './wallets/actingWallet.js'
export { canSee, findWallet } from './wallets/findWallet.js'
export type { GetBalanceParameters, GetBalanceReturnType, TokenBalance } from './wallets/getBalance.js'
export * from './wallets/types.js'
export * from './wallets/walletSchemas.js'
export { computeBackoff, isRetryable } from './webhooks/computeBackoff.js'
export { deliverWebhooks } from './webhooks/deliverWebhooks.js'
export { type AddressStanding, assertCidrList, judgeAddress } from './webhooks/judgeAddress.js'
export { toWebhookSubscription, type WebhookSubscription } from './webhooks/manageWebhooks.js'
export { resolveWebhookTarget, type WebhookTarget } from './webhooks/resolveWebhookTarget.js'
export { sealLegacyWebhookSecrets } from './webhooks/sealLegacyWebhookSecrets.js'
export { newWebhookSecret, signWebhook } from './webhooks/signWebhook.js'
export { startWebhookWorker, type WebhookWorker } from './webhooks/startWebhookWorker.js'
export * from './webhooks/types.js'
export { defaultWebhookOptions, type WebhookLookup, type WebhookOptions } from './webhooks/webhookOptions.js'
export * from './webhooks/webhookSchemas.js'
export { openWebhookSecret, resealWebhookSecret, sealWebhookSecret } from './webhooks/webhookSecret.js'

import type { AllowanceGrantRecord } from './allowances/types.js'
import type { ApprovalRecord } from './approvals/types.js'
import type { SwapRecord } from './defi/swapTypes.js'
import type { EnsRegistrationRecord } from './ens/types.js'
import type { IdempotencyRecord } from './idempotency/types.js'
import type { IdentityRecord } from './identity/types.js'
import type { MultisigWalletRecord, SafeProposalRecord } from './multisig/multisigTypes.js'
import type { X402RequestRecord } from './payments/x402RequestRecord.js'
import type { PolicyRecord } from './policy/policyStore.js'
import type { ApiKeyRecord, TenantRecord } from './principals/apiKeyTypes.js'
import type { ScreeningEntryRecord, ScreeningListRecord } from './screening/screeningRecords.js'
import type { UserOperationRecord } from './smartWallets/types.js'
import type { NonceRecord, TransactionRecord } from './transactions/types.js'
import type { MasterKeyRotationRecord } from './vault/assertMasterKey.js'
import type { VaultKeyRow } from './vault/storageKeyRecordStore.js'
import type { WalletRecord } from './wallets/types.js'
import type {
  WebhookDeliveryBatchRecord,
  WebhookDeliveryRecord,
  WebhookRetiredCountRecord,
  WebhookSubscriptionRecord,
} from './webhooks/types.js'

/**
 * The record type of each collection core keeps, so `storage.get('transactions', id)` is typed
 * without a cast. A collection not named here holds plain `StoredRecord`s (see `RecordOf`).
 */
export interface CollectionRecords {
  tenants: TenantRecord
  api_keys: ApiKeyRecord
  wallets: WalletRecord
  vault_keys: VaultKeyRow
  master_key_rotation: MasterKeyRotationRecord
  transactions: TransactionRecord
  approvals: ApprovalRecord
  policies: PolicyRecord
  nonces: NonceRecord
  idempotency: IdempotencyRecord
  identities: IdentityRecord
  ens_names: EnsRegistrationRecord
  swaps: SwapRecord
  multisig_wallets: MultisigWalletRecord
  multisig_proposals: SafeProposalRecord
  webhook_subscriptions: WebhookSubscriptionRecord
  webhook_deliveries: WebhookDeliveryRecord
  webhook_delivery_batches: WebhookDeliveryBatchRecord
  webhook_retired_counts: WebhookRetiredCountRecord
  x402_requests: X402RequestRecord
  allowance_grants: AllowanceGrantRecord
  user_operations: UserOperationRecord
  screening_lists: ScreeningListRecord
  screening_entries: ScreeningEntryRecord
}

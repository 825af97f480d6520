// `@agentwallet/core/contract`: what every operation takes, answers and may fail with, in zod and
// nothing else (no viem, no node built-ins, no domain code: `.dependency-cruiser.cjs` checks it).
// The client, the dashboard, OpenAPI, MCP and the agent frameworks read this; core binds it to actions.
export { allowanceContract } from '../allowances/allowanceContract.js'
export { approvalContract } from '../approvals/approvalContract.js'
export { auditContract } from '../audit/auditContract.js'
export { defiContract } from '../defi/defiContract.js'
export { devnetContract } from '../devnet/devnetContract.js'
export { ensContract } from '../ens/ensContract.js'
export { BaseError, type BaseErrorParameters, isAgentWalletError } from '../errors/baseError.js'
export { type ErrorCode, errorCodes } from '../errors/errorCodes.js'
export {
  ChainUnavailableError,
  ConflictError,
  EffectsChangedError,
  ForbiddenError,
  NotFoundError,
  NotImplementedError,
  PolicyBlockedError,
  ValidationError,
} from '../errors/errors.js'
export { identityContract } from '../identity/identityContract.js'
export { multisigContract } from '../multisig/multisigContract.js'
export { paymentContract } from '../payments/paymentContract.js'
export { policyContract } from '../policy/policyContract.js'
export { principalContract } from '../principals/principalContract.js'
export {
  type Caller,
  type CallOptions,
  chainErrors,
  commonErrors,
  defineContracts,
  type HttpBinding,
  type HttpMethod,
  intentErrors,
  type NamedContracts,
  type OperationContract,
  type OperationContractBody,
  pathParametersOf,
  toolNameOf,
} from '../schemas/defineContract.js'
export {
  effectLine,
  effectsHeadline,
  type HeadlineEffect,
  type HeadlineEffects,
  type HeadlineOptions,
  orderEffects,
} from '../schemas/effectsHeadline.js'
export { type EventName, eventNames, type WebhookEventName } from '../schemas/eventNames.js'
export type { Address, Hex } from '../schemas/hexTypes.js'
export { out } from '../schemas/out.js'
export { parseInput } from '../schemas/parseInput.js'
export { addressSchema, decimalAmountSchema, hexDataSchema } from '../schemas/primitives.js'
export { screeningContract } from '../screening/screeningContract.js'
export { transactionContract } from '../transactions/transactionContract.js'
export { walletContract } from '../wallets/walletContract.js'
export { webhookContract } from '../webhooks/webhookContract.js'
export {
  type Contract,
  type ContractName,
  type ContractNamed,
  contractList,
  contracts,
} from './contractList.js'

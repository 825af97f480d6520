import type { OpenApiRoute } from './openApiRoutes.js'
import type { TenantFixture } from './tenantFixture.js'

export type Kind =
  | 'wallet'
  | 'tx'
  | 'approval'
  | 'apiKey'
  | 'delivery'
  | 'subscription'
  | 'safe'
  | 'identity'
  | 'identityRegistration'
  | 'ensRegistration'
  | 'swap'
  | 'chainName'
  | 'chainAddress'
  | 'screeningList'
/** Which tenant resource a path parameter names, by the path it sits in (first match wins). */
const paramKinds: Array<[prefix: string, param: string, kind: Kind]> = [
  ['/wallet/tx/', 'transaction', 'tx'],
  // An x402 payment is a transaction of the tenant's.
  ['/payments/', 'payment', 'tx'],
  ['/wallet/', 'wallet', 'wallet'],
  ['/identity/wallet/', 'wallet', 'wallet'],
  ['/identity/registration/', 'registrationId', 'identityRegistration'],
  ['/identity/', 'agentId', 'identity'],
  ['/policy/approvals/', 'approvalId', 'approval'],
  ['/api-keys/', 'keyId', 'apiKey'],
  ['/webhooks/logs/', 'deliveryId', 'delivery'],
  ['/webhooks/', 'subscriptionId', 'subscription'],
  ['/multisig/', 'safe', 'safe'],
  ['/ens/registration/', 'registrationId', 'ensRegistration'],
  ['/defi/swap/', 'swapId', 'swap'],
  ['/screening/lists/', 'list', 'screeningList'],
  // Reverse records of any address are public chain data, as names are.
  ['/ens/reverse/', 'address', 'chainAddress'],
  // Names are public chain data (availability, resolution): not a tenant's resource.
  ['/ens/', 'name', 'chainName'],
]
/** Tenant A's resource for each kind. */
export function resourceValues(f: TenantFixture): Record<Kind, string> {
  return {
    wallet: f.a.wallet,
    tx: f.a.txHash,
    approval: f.a.approvalId,
    apiKey: f.a.apiKeyId,
    delivery: f.a.deliveryId,
    subscription: f.a.subscriptionId,
    safe: f.a.safe,
    identity: f.a.agentId,
    identityRegistration: f.a.identityRegistrationId,
    ensRegistration: f.a.ensRegistrationId,
    swap: f.a.swapId,
    chainName: f.a.ensName,
    chainAddress: f.a.wallet,
    screeningList: f.a.screeningListId,
  }
}

export function kindOf(route: OpenApiRoute, param: string): Kind | undefined {
  return paramKinds.find(([prefix, name]) => route.path.startsWith(prefix) && name === param)?.[2]
}

import { getApproval, listApprovals } from './approvals/listApprovals.js'
import { approveApproval, rejectApproval } from './approvals/resolveApproval.js'
import type { AgentWalletContext } from './context.js'
import { getPrices } from './defi/getPrices.js'
import { quoteSwap } from './defi/quoteSwap.js'
import { stake } from './defi/stake.js'
import { swap } from './defi/swap.js'
import { getSwap } from './defi/trackSwap.js'
import { checkEnsName } from './ens/checkEnsName.js'
import { getEnsRegistration, listEnsNames } from './ens/listEnsNames.js'
import { registerEnsName } from './ens/registerEnsName.js'
import { resolveEnsName, reverseEnsName } from './ens/resolveEnsName.js'
import { type IdempotencyOptions, withIdempotency } from './idempotency/withIdempotency.js'
import { getIdentity } from './identity/getIdentity.js'
import { getIdentityRegistration } from './identity/getIdentityRegistration.js'
import { identitiesOfWallet, listIdentities } from './identity/listIdentities.js'
import { registerIdentity } from './identity/registerIdentity.js'
import { confirmSafeTransaction } from './multisig/confirmSafeTransaction.js'
import { deploySafe } from './multisig/deploySafe.js'
import { getSafe } from './multisig/getSafe.js'
import { proposeSafeTransaction } from './multisig/proposeSafeTransaction.js'
import { evaluatePolicy } from './policy/evaluatePolicy.js'
import { getPolicyRules, updatePolicyRules } from './policy/managePolicy.js'
import { createApiKey } from './principals/createApiKey.js'
import { createTenant } from './principals/createTenant.js'
import { listApiKeys } from './principals/listApiKeys.js'
import { revokeApiKey } from './principals/revokeApiKey.js'
import type { Principal } from './principals/types.js'
import { estimateGas } from './transactions/estimateGas.js'
import { getTransaction } from './transactions/getTransaction.js'
import { listHistory } from './transactions/listHistory.js'
import { sendTransaction } from './transactions/sendTransaction.js'
import { waitForTransaction } from './transactions/waitForTransaction.js'
import { createWallet, importWallet } from './wallets/createWallet.js'
import { findWallet } from './wallets/findWallet.js'
import { getBalance } from './wallets/getBalance.js'
import { listWalletPage, listWallets } from './wallets/listWallets.js'
import { toWallet } from './wallets/types.js'
import { webhookActions } from './webhooks/webhookActions.js'

type Tail<T extends unknown[]> = T extends [unknown, unknown, ...infer Rest] ? Rest : never
// biome-ignore lint/suspicious/noExplicitAny: binds actions of any signature
type Bound<F extends (...args: any[]) => any> = (...args: Tail<Parameters<F>>) => ReturnType<F>

/**
 * The actions of core bound to a context and a principal (viem's decorator pattern): what an
 * in-process agent, the HTTP edge and the MCP tools call.
 */
export type AgentWalletSession = ReturnType<typeof createSession>

/**
 * Binds every action to `ctx` and `principal`.
 * @example const agent = createSession(ctx, { tenantId: 't1', id: 'key_1', role: 'agent' })
 */
export function createSession(ctx: AgentWalletContext, principal: Principal) {
  // biome-ignore lint/suspicious/noExplicitAny: binds actions of any signature
  const bind = <F extends (ctx: AgentWalletContext, principal: Principal, ...rest: any[]) => any>(
    action: F,
  ): Bound<F> => ((...args: unknown[]) => action(ctx, principal, ...args)) as Bound<F>
  return {
    principal,
    createWallet: (parameters: Parameters<typeof createWallet>[2], options: IdempotencyOptions = {}) =>
      withIdempotency(ctx, principal, 'wallet.create', parameters, options, () =>
        createWallet(ctx, principal, parameters),
      ),
    importWallet: (parameters: Parameters<typeof importWallet>[2], options: IdempotencyOptions = {}) =>
      withIdempotency(ctx, principal, 'wallet.import', parameters, options, () =>
        importWallet(ctx, principal, parameters),
      ),
    getWallet: async (address: string) => toWallet(await findWallet(ctx, principal, address)),
    listWallets: bind(listWallets),
    listWalletPage: bind(listWalletPage),
    getBalance: bind(getBalance),
    send: bind(sendTransaction),
    estimateGas: bind(estimateGas),
    getTransaction: bind(getTransaction),
    listHistory: bind(listHistory),
    waitForTransaction: (transactionId: string, options?: { timeoutMs?: number }) =>
      waitForTransaction(ctx, transactionId, options),
    getPolicyRules: bind(getPolicyRules),
    updatePolicyRules: bind(updatePolicyRules),
    evaluatePolicy: bind(evaluatePolicy),
    listApprovals: bind(listApprovals),
    getApproval: bind(getApproval),
    approve: bind(approveApproval),
    reject: bind(rejectApproval),
    createApiKey: bind(createApiKey),
    listApiKeys: bind(listApiKeys),
    revokeApiKey: bind(revokeApiKey),
    createTenant: bind(createTenant),
    ...webhookActions(ctx, principal),
    registerIdentity: (
      parameters: Parameters<typeof registerIdentity>[2],
      options: IdempotencyOptions = {},
    ) =>
      withIdempotency(ctx, principal, 'identity.create', parameters, options, () =>
        registerIdentity(ctx, principal, parameters),
      ),
    getIdentity: bind(getIdentity),
    getIdentityRegistration: bind(getIdentityRegistration),
    listIdentities: bind(listIdentities),
    identitiesOfWallet: bind(identitiesOfWallet),
    checkEnsName: (name: string, options?: Parameters<typeof checkEnsName>[2]) =>
      checkEnsName(ctx, name, options),
    resolveEnsName: (name: string, options?: Parameters<typeof resolveEnsName>[2]) =>
      resolveEnsName(ctx, name, options),
    reverseEnsName: (address: string, options?: Parameters<typeof reverseEnsName>[2]) =>
      reverseEnsName(ctx, address, options),
    registerEnsName: (parameters: Parameters<typeof registerEnsName>[2], options: IdempotencyOptions = {}) =>
      withIdempotency(ctx, principal, 'ens.register', parameters, options, () =>
        registerEnsName(ctx, principal, parameters),
      ),
    listEnsNames: bind(listEnsNames),
    getEnsRegistration: bind(getEnsRegistration),
    quoteSwap: bind(quoteSwap),
    getSwap: bind(getSwap),
    swap: (parameters: Parameters<typeof swap>[2], options: IdempotencyOptions = {}) =>
      withIdempotency(ctx, principal, 'defi.swap', parameters, options, () =>
        swap(ctx, principal, parameters),
      ),
    stake: (parameters: Parameters<typeof stake>[2], options: IdempotencyOptions = {}) =>
      withIdempotency(ctx, principal, 'defi.stake', parameters, options, () =>
        stake(ctx, principal, parameters),
      ),
    getPrices: (parameters: Parameters<typeof getPrices>[1]) => getPrices(ctx, parameters),
    deploySafe: (parameters: Parameters<typeof deploySafe>[2], options: IdempotencyOptions = {}) =>
      withIdempotency(ctx, principal, 'multisig.deploy', parameters, options, () =>
        deploySafe(ctx, principal, parameters),
      ),
    proposeSafeTransaction: (
      safe: string,
      parameters: Parameters<typeof proposeSafeTransaction>[3],
      options: IdempotencyOptions = {},
    ) =>
      withIdempotency(ctx, principal, 'multisig.propose', { safe, ...parameters }, options, () =>
        proposeSafeTransaction(ctx, principal, safe, parameters),
      ),
    confirmSafeTransaction: (
      safe: string,
      parameters: Parameters<typeof confirmSafeTransaction>[3],
      options: IdempotencyOptions = {},
    ) =>
      withIdempotency(ctx, principal, 'multisig.confirm', { safe, ...parameters }, options, () =>
        confirmSafeTransaction(ctx, principal, safe, parameters),
      ),
    getSafe: bind(getSafe),
  }
}

import {
  type AgentWalletSession,
  type ApprovalRecord,
  ForbiddenError,
  toTransactionView,
} from '@agentwallet/core'
import type {
  AgentWalletBackend,
  ApprovalStatus,
  IdentityOutcome,
  SendOutcome,
} from './agentWalletBackend.js'
import { type ApprovalInstructionsOptions, approvalInstructions } from './approvalInstructions.js'
import { settledView } from './settledView.js'

export type InProcessBackendOptions = {
  /** The session of an agent principal: `aw.as(await aw.authenticate(agentKey))`. */
  session: AgentWalletSession
  /** Where humans approve paused sends (the server URL over the same storage, a dashboard). */
  approvals?: ApprovalInstructionsOptions | undefined
}

/**
 * The tools' backend over `@agentwallet/core` in this process, acting as one agent principal.
 * @example const backend = inProcessBackend({ session: aw.as(await aw.authenticate(process.env.AGENTWALLET_API_KEY)) })
 */
export function inProcessBackend(options: InProcessBackendOptions): AgentWalletBackend {
  const { session } = options
  // An approver or admin session would let tools see (and spend from) every wallet of the tenant.
  if (session.principal.role !== 'agent') {
    throw new ForbiddenError('The agent tools act as an agent: use an API key with role "agent"', {
      details: { role: session.principal.role },
    })
  }
  const withInstructions = (approval: ApprovalRecord): ApprovalStatus =>
    approval.status === 'pending'
      ? { ...approval, howToApprove: approvalInstructions(approval.id, options.approvals) }
      : approval
  return {
    kind: 'in-process',
    listWallets: () => session.listWallets(),
    getBalance: (address, parameters) => session.getBalance(address, parameters),
    async send(address, parameters, sendOptions = {}): Promise<SendOutcome> {
      const result = await session.send(address, parameters, { idempotencyKey: sendOptions.idempotencyKey })
      const transaction = toTransactionView(result.transaction)
      if (result.status !== 'pending_approval')
        return { status: result.status, hash: transaction.hash, transaction }
      const { id, status, expiresAt, ruleId, reason } = result.approval
      return {
        status: 'pending_approval',
        hash: null,
        transaction,
        approval: {
          id,
          status,
          expiresAt,
          ruleId: ruleId ?? null,
          reason,
          howToApprove: approvalInstructions(id, options.approvals),
        },
      }
    },
    estimateGas: (parameters) => session.estimateGas(parameters),
    getTransaction: (hashOrId) => session.getTransaction(hashOrId),
    getApproval: async (approvalId) => withInstructions(await session.getApproval(approvalId)),
    async listApprovals(parameters) {
      const { count, approvals } = await session.listApprovals(parameters)
      return { count, approvals: approvals.map(withInstructions) }
    },
    async registerIdentity(parameters, idempotency = {}): Promise<IdentityOutcome> {
      const result = await session.registerIdentity(parameters, idempotency)
      if (!('status' in result)) return result
      const { id, status, expiresAt, ruleId, reason } = result.approval
      return {
        status: 'pending_approval',
        approval: {
          id,
          status,
          expiresAt,
          ruleId: ruleId ?? null,
          reason,
          howToApprove: approvalInstructions(id, options.approvals),
        },
        identity: result.identity,
      }
    },
    getIdentity: (agentId, query) => session.getIdentity(agentId, query),
    listIdentities: () => session.listIdentities(),
    checkEnsName: (name, query) => session.checkEnsName(name, query),
    resolveEnsName: (name, query) => session.resolveEnsName(name, query),
    registerEnsName: (parameters, idempotency = {}) => session.registerEnsName(parameters, idempotency),
    getEnsRegistration: (registrationId) => session.getEnsRegistration(registrationId),
    quoteSwap: (parameters) => session.quoteSwap(parameters),
    swap: async (parameters, idempotency = {}) =>
      settledView(await session.swap(parameters, idempotency), options.approvals),
    getSwap: (swapId) => session.getSwap(swapId),
    stake: async (parameters, idempotency = {}) =>
      settledView(await session.stake(parameters, idempotency), options.approvals),
    getPrices: (parameters) => session.getPrices(parameters),
    proposeSafeTransaction: async (safe, parameters, idempotency = {}) =>
      settledView(await session.proposeSafeTransaction(safe, parameters, idempotency), options.approvals),
    confirmSafeTransaction: async (safe, parameters, idempotency = {}) =>
      settledView(await session.confirmSafeTransaction(safe, parameters, idempotency), options.approvals),
    getSafe: (safe, parameters) => session.getSafe(safe, parameters),
  }
}

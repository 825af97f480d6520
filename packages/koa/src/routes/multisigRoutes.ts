import {
  confirmSafeSchema,
  deploySafeSchema,
  getSafeSchema,
  proposeSafeSchema,
  type TransactionRecord,
  toTransactionView,
} from '@agentwallet/core'
import { defineRoute } from './defineRoute.js'

/** Safe v1.4.1 multisig wallets: deploy, propose, confirm (executes at threshold), read. */
export const multisigRoutes = [
  defineRoute({
    method: 'post',
    path: '/multisig/deploy',
    summary: 'Deploy a Safe v1.4.1 with owners and threshold, paid by a managed wallet (`from`)',
    body: deploySafeSchema,
    idempotent: true,
    status: 201,
    handler: async ({ session, body, idempotencyKey }) => {
      const { transaction, approval, ...deployed } = await session.deploySafe(body, { idempotencyKey })
      if (approval) {
        const { id, expiresAt, ruleId, reason } = approval
        return {
          status: 202,
          body: {
            success: true,
            ...deployed,
            approval: { id, expiresAt, ruleId: ruleId ?? null, reason },
            transaction: view(transaction),
          },
        }
      }
      return { status: 201, body: { success: true, ...deployed, transaction: view(transaction) } }
    },
  }),
  defineRoute({
    method: 'post',
    path: '/multisig/:address/propose',
    summary:
      'Propose a Safe transaction: SafeTx at the Safe nonce, EIP-712 hash, signed by the proposing owner (`from`)',
    body: proposeSafeSchema,
    idempotent: true,
    status: 201,
    handler: async ({ session, params, body, idempotencyKey }) => {
      const result = await session.proposeSafeTransaction(params.address!, body, { idempotencyKey })
      return { status: 201, body: { success: true, ...result, transaction: view(result.transaction) } }
    },
  }),
  defineRoute({
    method: 'post',
    path: '/multisig/:address/confirm',
    summary:
      "Confirm a proposal as a managed owner (`from`) or with an outside owner's `signature`; at threshold executes and returns the hash",
    body: confirmSafeSchema,
    idempotent: true,
    handler: async ({ session, params, body, idempotencyKey }) => {
      const result = await session.confirmSafeTransaction(params.address!, body, { idempotencyKey })
      return {
        body: {
          success: true,
          ...result,
          transaction: view(result.transaction),
          hash: result.transaction?.hash ?? null,
        },
      }
    },
  }),
  defineRoute({
    method: 'get',
    path: '/multisig/:address',
    summary: 'A Safe: owners, threshold and nonce from chain, and pending proposals',
    query: getSafeSchema,
    handler: async ({ session, params, query }) => ({
      body: { success: true, safe: await session.getSafe(params.address!, query) },
    }),
  }),
]

function view(record: TransactionRecord | undefined) {
  return record ? toTransactionView(record) : null
}

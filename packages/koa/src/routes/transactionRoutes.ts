import { addressSchema, historyQuerySchema, sendSchema, toTransactionView } from '@agentwallet/core'
import { z } from 'zod'
import { defineRoute } from './defineRoute.js'

/** A dry run names the sending wallet in `from`; the rest is a send. */
export const estimateGasSchema = z.strictObject({ from: addressSchema, ...sendSchema.shape })

const txQuerySchema = z.strictObject({ chain: z.string().min(1).max(64).optional() })

/** Transactions: send (with policy and HITL), status, history, gas estimates. */
export const transactionRoutes = [
  defineRoute({
    method: 'post',
    path: '/wallet/:address/send',
    summary:
      'Send native value, an ERC-20 transfer or a call through the policy engine (202 when paused for approval)',
    body: sendSchema,
    idempotent: true,
    handler: async ({ session, params, body, idempotencyKey }) => {
      const result = await session.send(params.address!, body, { idempotencyKey })
      const transaction = toTransactionView(result.transaction)
      if (result.status === 'pending_approval' && result.approval) {
        const { id, expiresAt, ruleId, reason } = result.approval
        return {
          status: 202,
          body: {
            success: true,
            status: 'pending_approval',
            approval: { id, expiresAt, ruleId: ruleId ?? null, reason },
            transaction,
          },
        }
      }
      return { body: { success: true, status: transaction.status, hash: transaction.hash, transaction } }
    },
  }),
  defineRoute({
    method: 'get',
    path: '/wallet/tx/:hash',
    summary: 'A transaction by hash (or id tx_…): status, blockNumber, confirmations, explorer link',
    query: txQuerySchema,
    handler: async ({ session, params, query }) => {
      const transaction = await session.getTransaction(params.hash!, { chain: query?.chain })
      const { status, blockNumber, explorer, confirmations, hash } = transaction
      return { body: { success: true, hash, status, blockNumber, explorer, confirmations, transaction } }
    },
  }),
  defineRoute({
    method: 'get',
    path: '/wallet/:address/history',
    summary: 'Transactions of a wallet, newest first (limit default 50, max 200)',
    query: historyQuerySchema,
    handler: async ({ session, params, query }) => ({
      body: { success: true, ...(await session.listHistory(params.address!, query)) },
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/wallet/estimate-gas',
    summary: 'Gas limit and fees from a dry run of a send (no policy, no signing)',
    body: estimateGasSchema,
    handler: async ({ session, body }) => {
      const estimate = await session.estimateGas(body)
      return { body: { success: true, ...estimate, estimate } }
    },
  }),
]

import { addressSchema, updatePolicySchema } from '@agentwallet/core'
import { z } from 'zod'
import { defineRoute } from './defineRoute.js'
import { estimateGasSchema } from './transactionRoutes.js'

const rulesQuerySchema = z.strictObject({ wallet: addressSchema.optional() })

/** Policy: read, replace (admins), dry-run evaluate. */
export const policyRoutes = [
  defineRoute({
    method: 'get',
    path: '/policy/rules',
    summary: 'The tenant rules, and with ?wallet= that wallet’s own rules too',
    query: rulesQuerySchema,
    handler: async ({ session, query }) => ({
      body: { success: true, ...(await session.getPolicyRules(query)) },
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/policy/update',
    summary: 'Replace the rule set of the tenant, or of one wallet (admin keys only)',
    roles: 'admin',
    body: updatePolicySchema,
    handler: async ({ session, body }) => ({
      body: { success: true, ...(await session.updatePolicyRules(body)) },
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/policy/evaluate',
    summary: 'Dry run of the policy for a send: the decision and the rule that made it; nothing is stored',
    body: estimateGasSchema,
    handler: async ({ session, body }) => ({
      body: { success: true, decision: await session.evaluatePolicy(body) },
    }),
  }),
]

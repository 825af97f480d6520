import { chainErrors, defineContracts, everyFamily } from '../schemas/defineContract.js'
import { sendSchema } from '../transactions/sendSchema.js'
import {
  evaluatePolicyAnswerSchema,
  policyRulesQuerySchema,
  policyRulesSchema,
  updatePolicySchema,
} from './policySchemas.js'

/** Policy: read, replace (admins), dry-run evaluate. (contracts: what each operation takes, answers and may fail with) */
export const policyContract = defineContracts({
  getPolicyRules: {
    summary:
      'The tenant rules, and with ?wallet= that wallet’s own rules and its agent’s (or ?agent= an agent key’s)',
    description:
      'The policy rules that apply to this caller’s sends: the tenant’s rules, and with `wallet` that wallet’s own rules and the rules of the agent key holding it (`agent`: counted over every wallet that key holds, on every chain); with `agent` that agent key’s rules (an agent reads only its own). Limits, allowlists, approval thresholds: read them to know what a send may do before trying it.',
    input: policyRulesQuerySchema,
    output: policyRulesSchema,
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/policy/rules', status: 200 },
    errors: ['not_found'],
    tool: true,
    families: everyFamily,
  },
  updatePolicyRules: {
    summary: 'Replace the rule set of the tenant, of one agent key, or of one wallet (admin keys only)',
    description:
      'Replace the whole rule set of the tenant, of one agent (`agent`: an API key id; its rules count over every wallet that key holds, on every chain, in one window), or of one wallet. Admin keys only: an agent cannot loosen its own policy. Smart wallets it governs get a new session grant from the new rules (the old one revoked on chain).',
    input: updatePolicySchema,
    output: policyRulesSchema,
    roles: ['admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'post', path: '/policy/update', status: 200 },
    errors: ['not_found', 'chain_unavailable', 'unsupported_protocol'],
    tool: false,
    families: everyFamily,
  },
  evaluatePolicy: {
    summary: 'Dry run of the policy for a send: the decision and the rule that made it; nothing is stored',
    description:
      'Dry run of the policy for a send, without sending: what the send would do (its effects: assets out and in, allowances granted; or why they are not known), allow, deny or require_approval, the rule that decided and every rule’s outcome (an amount rule lists the effects it counted). Nothing is stored or reserved.',
    input: sendSchema,
    output: evaluatePolicyAnswerSchema,
    // A dry run changes nothing: approvers read it too (the dashboard draws spend against limits with it).
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'post', path: '/policy/evaluate', status: 200, renamedFields: { from: 'wallet' } },
    errors: ['not_found', 'screening_unavailable', ...chainErrors],
    tool: true,
  },
})

import { chainErrors, defineContracts, intentErrors } from '../schemas/defineContract.js'
import { sendAnswerSchema } from '../transactions/transactionSchemas.js'
import {
  listAllowancesAnswerSchema,
  listAllowancesSchema,
  revokeAllowanceSchema,
} from './allowanceSchemas.js'

/** The permissions a wallet granted (allowances, operators) that still stand, and taking them back. (contracts: what each operation takes, answers and may fail with) */
export const allowanceContract = defineContracts({
  listAllowances: {
    summary: 'Allowances and operator grants the service made from a wallet that still stand on chain',
    description:
      'List the permissions this service granted from a wallet that still stand on chain: ERC-20 and Permit2 allowances above zero (unlimited ones flagged), operators over ERC-721/ERC-1155 collections, single ERC-721 token approvals. Each is read back from the chain now.',
    input: listAllowancesSchema,
    output: listAllowancesAnswerSchema,
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/wallet/:wallet/allowances', status: 200 },
    errors: ['not_found', ...chainErrors],
    tool: true,
  },
  revokeAllowance: {
    summary: 'Take back an allowance or operator grant from a spender (a send through the policy engine)',
    description:
      'Take back a permission the wallet granted: sets an ERC-20 or Permit2 allowance to 0, removes an operator, or clears one ERC-721 token approval. It is a transaction from the wallet and passes its policy like any send (it moves nothing and grants nothing); it may pause for approval.',
    input: revokeAllowanceSchema,
    output: sendAnswerSchema,
    roles: ['agent', 'admin'],
    idempotent: true,
    movesValue: true,
    http: { method: 'post', path: '/wallet/:wallet/allowances/revoke', status: 200, whenPaused: 202 },
    errors: ['not_found', 'transaction_failed', ...intentErrors],
    tool: true,
  },
})

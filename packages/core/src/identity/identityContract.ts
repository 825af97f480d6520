import * as z from 'zod/mini'
import { chainErrors, defineContracts, intentErrors } from '../schemas/defineContract.js'
import { out } from '../schemas/out.js'
import { walletField } from '../wallets/walletSchemas.js'
import {
  getIdentitySchema,
  identityDetailSchema,
  identityListSchema,
  identityRegistrationSchema,
  registerIdentityAnswerSchema,
  registerIdentitySchema,
} from './identitySchemas.js'

/** ERC-8004 identities: register, list, by wallet, by agentId (read from chain, with a proof of ownership). (contracts: what each operation takes, answers and may fail with) */
export const identityContract = defineContracts({
  registerIdentity: {
    summary:
      'Register an ERC-8004 identity for a wallet (mint, registration file as agentURI, agent wallet bound): 201 when done, 202 when a step waits for approval (the rest runs once approved)',
    description:
      'Register one of this caller’s wallets as an agent in the chain’s ERC-8004 Identity Registry: mints the identity NFT, writes the registration file (name, type, capabilities, services) as its agentURI and binds the wallet as the agent wallet. Answers the identity with its agentId, or status "pending_approval" when a step waits for a human (it then finishes by itself; follow it with get_identity_registration). Costs gas; passes the policy engine.',
    input: registerIdentitySchema,
    output: registerIdentityAnswerSchema,
    roles: ['agent', 'admin'],
    idempotent: true,
    movesValue: true,
    http: {
      method: 'post',
      path: '/identity/create',
      status: 201,
      whenPaused: 202,
      renamedFields: { walletAddress: 'wallet' },
    },
    errors: [
      'wallet_kind_unsupported',
      'not_found',
      'transaction_failed',
      'unsupported_protocol',
      ...intentErrors,
    ],
    tool: true,
  },
  listIdentities: {
    summary: 'Identities registered through this service that the caller may see',
    description: 'The ERC-8004 identities registered through this service for this caller’s wallets.',
    input: z.strictObject({}),
    output: identityListSchema,
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/identity/list', status: 200 },
    errors: [],
    tool: true,
  },
  getIdentityRegistration: {
    summary: 'One registration (idn_…), in progress or ended: status, step, the approval it waits for',
    description:
      'One identity registration by id (idn_…), in progress or ended: its status, the step it is on and the approval it waits for.',
    input: z.strictObject({
      registrationId: z
        .string()
        .check(z.minLength(1), z.maxLength(100), z.describe('The registration id (idn_…)')),
    }),
    output: z.object({ registration: identityRegistrationSchema }),
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/identity/registration/:registrationId', status: 200 },
    errors: ['not_found'],
    tool: true,
  },
  identitiesOfWallet: {
    summary: 'Identities bound to a wallet',
    description: 'The ERC-8004 identities bound to one of this caller’s wallets.',
    input: z.strictObject({ wallet: walletField }),
    output: z.extend(identityListSchema, { address: out.address }),
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/identity/wallet/:wallet', status: 200 },
    errors: ['not_found'],
    tool: false,
  },
  getIdentity: {
    summary:
      'Identity read from chain (owner, agentURI, metadata, agent wallet) with capabilities and a verifiable proof of ownership',
    description:
      'An identity by agentId, read back from chain (owner, agentURI, metadata, agent wallet), with its capabilities and a fresh EIP-712 proof of ownership signed by the agent wallet that anyone can verify.',
    input: getIdentitySchema,
    output: z.object({ identity: identityDetailSchema }),
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/identity/:agentId', status: 200 },
    errors: ['not_found', ...chainErrors],
    tool: true,
  },
})

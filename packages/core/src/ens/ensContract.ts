import * as z from 'zod/mini'
import { chainErrors, defineContracts, intentErrors } from '../schemas/defineContract.js'
import {
  checkEnsSchema,
  ensCheckAnswerSchema,
  ensRegistrationSchema,
  ensResolveAnswerSchema,
  ensReverseAnswerSchema,
  registerEnsSchema,
  resolveEnsSchema,
  reverseEnsSchema,
} from './ensSchemas.js'

const registrationAnswer = z.object({ registration: ensRegistrationSchema })

/** ENS names. `/ens/list`, `/ens/registration/:id` and `/ens/reverse/:address` come before `/ens/:name`. (contracts: what each operation takes, answers and may fail with) */
export const ensContract = defineContracts({
  listEnsNames: {
    summary: 'The caller’s names: registrations of its wallets, newest first, with their status',
    description:
      'The .eth names this caller registered (or is registering), newest first, with their status.',
    input: z.strictObject({}),
    output: z.object({ count: z.number().check(z.int()), names: z.array(ensRegistrationSchema) }),
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/ens/list', status: 200 },
    errors: [],
    tool: true,
  },
  checkEnsName: {
    summary: 'Normalized name (ENSIP-15), availability and rent price of a .eth name, from the controller',
    description:
      'Check a .eth name: its normalized form (ENSIP-15), whether it is available, and the rent for a duration (default one year). An invalid name fails with validation_failed.',
    input: checkEnsSchema,
    output: ensCheckAnswerSchema,
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/ens/check/:name', status: 200 },
    errors: ['unsupported_protocol', ...chainErrors],
    tool: true,
  },
  registerEnsName: {
    summary:
      'Register a .eth name by commit/reveal: 202 with the tracked operation; `ens.registered` when done',
    description:
      'Register a .eth name for one of this caller’s wallets by commit/reveal. Answers at once with the tracked registration (status committing); it finishes in the background (follow it with get_ens_registration). The wallet pays rent and gas; both pass the policy engine.',
    input: registerEnsSchema,
    output: z.object({ status: ensRegistrationSchema.shape.status, registration: ensRegistrationSchema }),
    roles: ['agent', 'admin'],
    idempotent: true,
    movesValue: true,
    http: { method: 'post', path: '/ens/register', status: 202 },
    errors: [
      'wallet_kind_unsupported',
      'not_found',
      'conflict',
      'transaction_failed',
      'unsupported_protocol',
      ...intentErrors,
    ],
    tool: true,
  },
  getEnsRegistration: {
    summary: 'One registration operation (poll it after a 202 from /ens/register)',
    description: 'One .eth registration by id: its status and the transactions of its steps.',
    input: z.strictObject({
      registrationId: z
        .string()
        .check(z.minLength(1), z.maxLength(100), z.describe('The registration id (ens_…)')),
    }),
    output: registrationAnswer,
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/ens/registration/:registrationId', status: 200 },
    errors: ['not_found'],
    tool: true,
  },
  reverseEnsName: {
    summary: 'The primary name of an address (reverse record, checked forward); 404 when it has none',
    description: 'The primary ENS name of any address (its reverse record, checked forward).',
    input: reverseEnsSchema,
    output: ensReverseAnswerSchema,
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/ens/reverse/:address', status: 200 },
    errors: ['not_found', 'unsupported_protocol', ...chainErrors],
    tool: false,
  },
  resolveEnsName: {
    summary: 'The address a name resolves to (registry → resolver); 404 when it resolves to nothing',
    description: 'The address an ENS name resolves to; not_found when it resolves to nothing.',
    input: resolveEnsSchema,
    output: ensResolveAnswerSchema,
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/ens/:name', status: 200 },
    errors: ['not_found', 'unsupported_protocol', ...chainErrors],
    tool: true,
  },
})

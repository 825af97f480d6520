import * as z from 'zod/mini'
import { chainErrors, defineContracts, intentErrors } from '../schemas/defineContract.js'
import {
  confirmSafeSchema,
  deploySafeAnswerSchema,
  deploySafeSchema,
  getSafeSchema,
  proposeSafeSchema,
  safeProposalAnswerSchema,
  safeSchema,
} from './multisigSchemas.js'

/** Safe v1.4.1 multisig wallets: deploy, propose, confirm (executes at threshold), read. (contracts: what each operation takes, answers and may fail with) */
export const multisigContract = defineContracts({
  deploySafe: {
    summary: 'Deploy a Safe v1.4.1 with owners and threshold, paid by a managed wallet (`wallet`)',
    description:
      'Deploy a Safe (v1.4.1) multisig wallet with the given owners and threshold; one of this caller’s wallets pays the gas. Answers the Safe’s address once mined, or status "pending_approval" when a human must approve the deployment.',
    input: deploySafeSchema,
    output: deploySafeAnswerSchema,
    roles: ['agent', 'admin'],
    idempotent: true,
    movesValue: true,
    http: {
      method: 'post',
      path: '/multisig/deploy',
      status: 201,
      whenPaused: 202,
      renamedFields: { from: 'wallet' },
    },
    errors: [
      'wallet_kind_unsupported',
      'not_found',
      'unsupported_protocol',
      'transaction_failed',
      ...intentErrors,
    ],
    tool: false,
  },
  proposeSafeTransaction: {
    summary:
      'Propose a Safe transaction: SafeTx at the Safe nonce, EIP-712 hash, signed by the proposing owner (`wallet`)',
    description:
      'Propose a transaction from a Safe that one of this caller’s wallets owns: it is signed by that owner and waits for the other owners’ confirmations; at the threshold it is executed. A 1-of-n Safe executes at once.',
    input: proposeSafeSchema,
    output: safeProposalAnswerSchema,
    roles: ['agent', 'admin'],
    idempotent: true,
    movesValue: true,
    http: {
      method: 'post',
      path: '/multisig/:safe/propose',
      status: 201,
      renamedFields: { from: 'wallet' },
    },
    errors: [
      'wallet_kind_unsupported',
      'not_found',
      'conflict',
      'unsupported_protocol',
      'transaction_failed',
      ...intentErrors,
    ],
    tool: true,
  },
  confirmSafeTransaction: {
    summary:
      "Confirm a proposal as a managed owner (`wallet`) or with an outside owner's `signature`; at threshold executes and returns the hash",
    description:
      'Confirm a proposed Safe transaction as one of this caller’s owner wallets (or with an outside owner’s signature). At the threshold it is executed (through the policy engine) and the answer carries the execution’s hash.',
    input: confirmSafeSchema,
    output: safeProposalAnswerSchema,
    roles: ['agent', 'admin'],
    idempotent: true,
    movesValue: true,
    http: {
      method: 'post',
      path: '/multisig/:safe/confirm',
      status: 200,
      renamedFields: { from: 'wallet' },
    },
    errors: ['wallet_kind_unsupported', 'not_found', 'conflict', 'transaction_failed', ...intentErrors],
    tool: true,
  },
  getSafe: {
    summary: 'A Safe: owners, threshold and nonce from chain, and pending proposals',
    description:
      'A Safe’s owners, threshold and nonce (read from chain) and its open proposals. An agent sees a Safe only when one of its wallets is an owner.',
    input: getSafeSchema,
    output: z.object({ safe: safeSchema }),
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/multisig/:safe', status: 200 },
    errors: ['not_found', 'unsupported_protocol', ...chainErrors],
    tool: true,
  },
})

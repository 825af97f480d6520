import * as z from 'zod/mini'
import { chainErrors, defineContracts, everyFamily, intentErrors } from '../schemas/defineContract.js'
import { replacementAnswerSchema, replacementSchema } from './replacementSchema.js'
import { sendSchema } from './sendSchema.js'
import {
  estimateGasAnswerSchema,
  getTransactionSchema,
  historyQuerySchema,
  sendAnswerSchema,
  transactionAnswerSchema,
  transactionDetailsSchema,
  transactionViewSchema,
  waitForTransactionAnswerSchema,
  waitForTransactionSchema,
} from './transactionSchemas.js'

/** Transactions: send (with policy and approvals), status, waiting, history, gas estimates. (contracts: what each operation takes, answers and may fail with) */
export const transactionContract = defineContracts({
  send: {
    summary:
      'Send native value, an ERC-20 transfer or a call through the policy engine (202 when paused for approval)',
    description:
      'Send native coin or an ERC-20 token (or call a contract) from one of this caller’s wallets. Every send passes the wallet’s policy: a blocked send fails with code policy_blocked and the rule that decided; a send above an approval threshold answers status "pending_approval" with the approval it waits for (a human approves it; an agent cannot). A wallet without the funds fails with insufficient_funds. Reuse the same idempotency key when retrying so a send never goes out twice.',
    input: sendSchema,
    output: sendAnswerSchema,
    roles: ['agent', 'admin'],
    idempotent: true,
    movesValue: true,
    http: { method: 'post', path: '/wallet/:wallet/send', status: 200, whenPaused: 202 },
    errors: ['not_found', 'transaction_failed', ...intentErrors],
    tool: true,
    families: everyFamily,
  },
  speedUp: {
    summary: 'Sign a submitted, unmined transaction again at its nonce with higher fees (same call)',
    description:
      'Speed up a transaction that was sent but is not mined yet (status submitted): the same call at the same nonce, signed again with fees at least 10% higher, or what the chain asks now. Without maxFeePerGas it stays within the fee-bump cap (maxFeeBumpMultiplier times its first max fee); give maxFeePerGas (wei per gas) to pay more, e.g. when the transaction shows `stuck`. The policy judges it as the same intent again. Both signatures stay valid until one is mined; the transaction keeps its id. A transaction no longer pending fails with transaction_not_pending.',
    input: replacementSchema,
    output: replacementAnswerSchema,
    roles: ['agent', 'admin'],
    idempotent: true,
    movesValue: true,
    http: { method: 'post', path: '/wallet/tx/:transaction/speed-up', status: 200 },
    errors: ['not_found', 'transaction_not_pending', 'transaction_failed', ...intentErrors],
    tool: true,
  },
  cancel: {
    summary:
      'Cancel a submitted, unmined transaction: a zero-value transfer to itself at its nonce, with higher fees',
    description:
      'Cancel a transaction that was sent but is not mined yet (status submitted): a transfer of 0 from the wallet to itself is signed at the same nonce with fees at least 10% higher. If it is mined first the transaction ends failed with error code cancelled and its call never happens; if the original is mined first it stands. Costs gas either way. Fees as for speedUp (maxFeePerGas passes the cap). A mined or failed transaction fails with transaction_not_pending.',
    input: replacementSchema,
    output: replacementAnswerSchema,
    roles: ['agent', 'admin'],
    idempotent: true,
    movesValue: true,
    http: { method: 'post', path: '/wallet/tx/:transaction/cancel', status: 200 },
    errors: ['not_found', 'transaction_not_pending', 'transaction_failed', ...intentErrors],
    tool: true,
  },
  estimateGas: {
    summary: 'Gas limit and fees from a dry run of a send (no policy, no signing)',
    description:
      'Dry run of a send: gas limit, EIP-1559 fees and the most it can cost in gas (ETH and wei). Nothing is signed or sent; policy is not applied.',
    input: sendSchema,
    output: estimateGasAnswerSchema,
    roles: ['agent', 'admin'],
    idempotent: false,
    movesValue: false,
    http: {
      method: 'post',
      path: '/wallet/estimate-gas',
      status: 200,
      renamedFields: { from: 'wallet' },
    },
    errors: ['not_found', 'transaction_failed', 'insufficient_funds', ...chainErrors],
    tool: true,
  },
  getTransaction: {
    summary: 'A transaction by hash (or id tx_…): status, blockNumber, confirmations, explorer link',
    description:
      'Status of a transaction by hash (0x…) or id (tx_…): pending_approval, rejected, expired, blocked, queued, submitted, confirmed or failed, with block number, confirmations and an explorer link.',
    input: getTransactionSchema,
    output: transactionAnswerSchema,
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/wallet/tx/:transaction', status: 200 },
    errors: ['not_found', ...chainErrors],
    tool: true,
    families: everyFamily,
  },
  getTransactionDetails: {
    summary:
      'A transaction as an explorer shows it: its call and receipt events decoded, block, gas (the dashboard’s transaction page)',
    description:
      'A transaction by hash or id with its call decoded (function and arguments, token amounts in units) and its receipt’s events decoded with the ABIs AgentWallet knows (ERC-20, Uniswap, Safe, ENS, ERC-8004, Lido), its block and its fee.',
    input: getTransactionSchema,
    output: transactionDetailsSchema,
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/wallet/tx/:transaction/details', status: 200 },
    errors: ['not_found', ...chainErrors],
    tool: false,
    families: everyFamily,
  },
  waitForTransaction: {
    summary:
      'Wait (long poll, up to timeoutMs) until a transaction is final; answers it either way, with `final`',
    description:
      'Wait until a transaction reaches a final status (confirmed, failed, rejected, expired, blocked) or the timeout passes, then answer it with `final` true or false. Use it after a send to learn whether it was mined.',
    input: waitForTransactionSchema,
    output: waitForTransactionAnswerSchema,
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/wallet/tx/:transaction/wait', status: 200 },
    errors: ['not_found', ...chainErrors],
    tool: true,
    families: everyFamily,
  },
  listHistory: {
    summary: 'Transactions of a wallet, newest first (limit default 50, max 200)',
    description:
      'The transactions of one of this caller’s wallets, newest first, with every status (blocked and paused ones too).',
    input: historyQuerySchema,
    output: z.object({
      count: z.number().check(z.int()),
      limit: z.number().check(z.int()),
      offset: z.number().check(z.int()),
      transactions: z.array(transactionViewSchema),
    }),
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/wallet/:wallet/history', status: 200 },
    errors: ['not_found'],
    tool: true,
    families: everyFamily,
  },
})

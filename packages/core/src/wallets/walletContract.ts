import * as z from 'zod/mini'
import { chainErrors, defineContracts, everyFamily } from '../schemas/defineContract.js'
import {
  balanceQuerySchema,
  balanceSchema,
  createWalletSchema,
  importWalletSchema,
  upgradeWalletSchema,
  walletField,
  walletListQuerySchema,
  walletSchema,
} from './walletSchemas.js'

const walletAnswer = z.object({ wallet: walletSchema })

/** Wallets: list, create, import, read, balances. (contracts: what each operation takes, answers and may fail with) */
export const walletContract = defineContracts({
  listWallets: {
    summary:
      'Wallets managed by the calling key (an agent: its own; approvers and admins: the tenant’s), oldest first; `count` is the total, `limit` (default 100, max 1000) and `offset` page through it',
    description:
      'List the wallets this caller manages: address, chain, agentName and id of each, oldest first. Use it to find which wallet to act with before a send, swap or balance read.',
    input: walletListQuerySchema,
    output: z.object({
      count: z.number().check(z.int()),
      limit: z.number().check(z.int()),
      offset: z.number().check(z.int()),
      wallets: z.array(walletSchema),
    }),
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/wallet/list', status: 200 },
    errors: [],
    tool: true,
    families: everyFamily,
  },
  createWallet: {
    summary: 'Create a wallet with a new encrypted key',
    description:
      'Create a new wallet (a fresh key, encrypted at rest; the key never leaves the service) for an agent. Answers the wallet with its address; fund it before sending. Pass an idempotency key so a retry does not create a second wallet.',
    input: createWalletSchema,
    output: walletAnswer,
    roles: ['agent', 'admin'],
    idempotent: true,
    movesValue: false,
    http: { method: 'post', path: '/wallet/create', status: 201 },
    errors: ['unsupported_chain', 'idempotency_conflict', 'conflict'],
    tool: true,
    families: everyFamily,
  },
  importWallet: {
    summary: 'Import an existing private key as a managed wallet',
    description:
      'Import an existing private key as a managed wallet. An address already managed here is a conflict.',
    input: importWalletSchema,
    output: walletAnswer,
    roles: ['agent', 'admin'],
    idempotent: true,
    movesValue: false,
    http: { method: 'post', path: '/wallet/import', status: 201 },
    errors: ['unsupported_chain', 'idempotency_conflict', 'conflict'],
    // A model would see the key it pastes: importing is for humans and scripts, not tools.
    tool: false,
    families: everyFamily,
  },
  upgradeWallet: {
    summary: 'Upgrade an EOA wallet in place to a smart account (EIP-7702)',
    description:
      'Upgrade an EOA wallet to a smart wallet without moving it: its own key (kept in the vault) signs an EIP-7702 delegation to the smart-account code, and the agent then acts through a session key whose limits the chain enforces. Address and funds are unchanged. Admins only: it changes who can act for the wallet.',
    input: upgradeWalletSchema,
    output: walletAnswer,
    // Admins only: it changes the wallet's trust model (docs/smart-accounts.md, "Upgrading an EOA wallet").
    roles: ['admin'],
    idempotent: true,
    movesValue: false,
    http: { method: 'post', path: '/wallet/upgrade', status: 200 },
    // wallet_kind_unsupported: not an EOA wallet (already smart, or a relayer); conflict: a send in flight;
    // insufficient_funds: the tenant's relayer cannot pay the type-4 transaction.
    errors: [
      'not_found',
      'wallet_kind_unsupported',
      'conflict',
      'unsupported_protocol',
      'insufficient_funds',
      'idempotency_conflict',
      ...chainErrors,
    ],
    tool: false,
  },
  getWallet: {
    summary: 'One managed wallet',
    description: 'One wallet this caller manages, by address.',
    input: z.strictObject({ wallet: walletField }),
    output: walletAnswer,
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/wallet/:wallet', status: 200 },
    errors: ['not_found'],
    tool: false,
    families: everyFamily,
  },
  getBalance: {
    summary: 'Native and ERC-20 balances of a wallet',
    description:
      'Native (ETH) and ERC-20 balances of one of this caller’s wallets, as decimal strings plus raw base units. The chain’s known tokens are always included; add others by address in `tokens`.',
    input: z.extend(balanceQuerySchema, { wallet: walletField }),
    output: balanceSchema,
    roles: ['agent', 'approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/wallet/:wallet/balance', status: 200 },
    // transaction_failed: a token of `tokens` whose balanceOf reverts.
    errors: ['not_found', 'transaction_failed', ...chainErrors],
    tool: true,
    families: everyFamily,
  },
})

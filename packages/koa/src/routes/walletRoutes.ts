import {
  balanceQuerySchema,
  createWalletSchema,
  importWalletSchema,
  walletListQuerySchema,
} from '@agentwallet/core'
import { z } from 'zod'
import { defineRoute } from './defineRoute.js'

/** `tokens` arrives in a query string as a comma-separated list. */
const balanceHttpQuerySchema = balanceQuerySchema.extend({
  tokens: z
    .string()
    .max(50 * 43)
    .transform((value) => value.split(',').filter(Boolean))
    .pipe(balanceQuerySchema.shape.tokens.unwrap())
    .optional(),
})

/** Wallets: create, import, list, balance. */
export const walletRoutes = [
  defineRoute({
    method: 'get',
    path: '/wallet/list',
    summary:
      'Wallets managed by the calling key (an agent: its own; approvers and admins: the tenant’s), oldest first; `count` is the total, `limit` (default 100, max 1000) and `offset` page through it',
    query: walletListQuerySchema,
    handler: async ({ session, query }) => ({
      body: { success: true, ...(await session.listWalletPage(query)) },
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/wallet/create',
    summary: 'Create a wallet with a new encrypted key',
    body: createWalletSchema,
    idempotent: true,
    status: 201,
    handler: async ({ session, body, idempotencyKey }) => ({
      status: 201,
      body: { success: true, wallet: await session.createWallet(body, { idempotencyKey }) },
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/wallet/import',
    summary: 'Import an existing private key as a managed wallet',
    body: importWalletSchema,
    idempotent: true,
    status: 201,
    handler: async ({ session, body, idempotencyKey }) => ({
      status: 201,
      body: { success: true, wallet: await session.importWallet(body, { idempotencyKey }) },
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/wallet/:address/balance',
    summary: 'Native and ERC-20 balances of a wallet',
    query: balanceHttpQuerySchema,
    handler: async ({ session, params, query }) => {
      const { address, chain, eth, wei, tokens } = await session.getBalance(params.address!, query)
      return {
        body: { success: true, address, chain, eth, wei, tokens, balance: { chain, eth, wei, tokens } },
      }
    },
  }),
]

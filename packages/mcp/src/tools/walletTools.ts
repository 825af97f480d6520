import { addressSchema, balanceQuerySchema } from '@agentwallet/core'
import { z } from 'zod'
import type { AgentWalletBackend } from '../backend/agentWalletBackend.js'
import { type AgentWalletTool, defineTool } from './defineTool.js'

/**
 * The read-only wallet tools: list the agent's wallets and read a balance.
 * @example const [listWallets, getBalance] = walletTools(backend)
 */
export function walletTools(backend: AgentWalletBackend): AgentWalletTool[] {
  return [
    defineTool({
      name: 'list_wallets',
      title: 'List wallets',
      description: 'The wallets this agent manages: address, chain, agentName, createdAt.',
      inputSchema: z.strictObject({}),
      readOnly: true,
      run: async () => {
        const wallets = await backend.listWallets()
        return { count: wallets.length, wallets }
      },
    }),
    defineTool({
      name: 'get_balance',
      title: 'Get balance',
      description:
        "Native (ETH) and ERC-20 balances of one of this agent's wallets, as decimal strings plus raw base units. The chain's known tokens are always included; add others by address in `tokens`.",
      inputSchema: balanceQuerySchema.extend({
        address: addressSchema.describe('The wallet address (0x + 40 hex)'),
      }),
      readOnly: true,
      run: ({ address, ...query }) => backend.getBalance(address, query),
    }),
  ]
}

import { addressSchema, sendSchema } from '@agentwallet/core'
import { z } from 'zod'
import type { AgentWalletBackend } from '../backend/agentWalletBackend.js'
import { type AgentWalletTool, defineTool } from './defineTool.js'
import { idempotencyKeySchema } from './idempotencyKeySchema.js'

/** A send names its wallet in `from`; the rest is the HTTP API's send body. */
const fromSchema = addressSchema.describe('The managed wallet that sends and pays gas')
const sendFields = {
  ...sendSchema.shape,
  to: sendSchema.shape.to.describe('Recipient address (0x + 40 hex)'),
  value: sendSchema.shape.value.describe(
    'Amount as a decimal string in the asset\'s units: "0.1" ETH, or "25" of the ERC-20 in `token`',
  ),
  token: sendSchema.shape.token.describe('ERC-20 contract address; omit to send the native coin'),
}

/**
 * Sending and reading transactions: send (native or ERC-20), gas estimate, status by hash or id.
 * @example const [send, estimateGas, getTransaction] = transactionTools(backend)
 */
export function transactionTools(backend: AgentWalletBackend): AgentWalletTool[] {
  return [
    defineTool({
      name: 'send',
      title: 'Send',
      description:
        'Send native coin or an ERC-20 token from one of this agent\'s wallets. Every send passes the wallet\'s policy: a blocked send fails with code policy_blocked and the rule that decided; a send above an approval threshold returns status "pending_approval" with an approval id and how a human approves it (this agent cannot approve). Reuse the same idempotencyKey when retrying so a send never goes out twice.',
      inputSchema: z.strictObject({
        from: fromSchema,
        ...sendFields,
        idempotencyKey: idempotencyKeySchema,
      }),
      readOnly: false,
      run: ({ from, idempotencyKey, ...send }) => backend.send(from, send, { idempotencyKey }),
    }),
    defineTool({
      name: 'estimate_gas',
      title: 'Estimate gas',
      description:
        'Dry run of a send: gas limit, EIP-1559 fees and the most it can cost in gas (ETH and wei). Nothing is signed or sent; policy is not applied.',
      inputSchema: z.strictObject({ from: fromSchema, ...sendFields }),
      readOnly: true,
      run: (parameters) => backend.estimateGas(parameters),
    }),
    defineTool({
      name: 'get_transaction',
      title: 'Transaction status',
      description:
        'A transaction by hash (0x…) or id (tx_…): status (pending_approval, rejected, expired, blocked, queued, submitted, confirmed, failed), block number, confirmations, explorer link.',
      inputSchema: z.strictObject({
        hash: z.string().min(1).max(100).describe('Transaction hash 0x… or id tx_…'),
      }),
      readOnly: true,
      run: ({ hash }) => backend.getTransaction(hash),
    }),
  ]
}

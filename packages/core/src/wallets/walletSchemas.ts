import * as z from 'zod'
import { out } from '../schemas/out.js'
import { addressSchema, displayTextSchema, hexDataSchema, pageFields } from '../schemas/primitives.js'

const agentName = displayTextSchema(100).min(1, 'agentName must not be empty')
const chainName = z.string().min(1).max(64)

/** The managed wallet that acts or is read: one name in every operation and tool. */
export const walletField = addressSchema.describe('Address of a managed wallet (0x + 40 hex)')

/** The chain to use instead of the wallet's own (its name in the server's configuration). */
export const chainField = chainName.describe('Chain name (default: the wallet’s chain)')

export const createWalletSchema = z.strictObject({
  agentName: agentName.describe('Name of the agent the wallet belongs to, shown to humans'),
  chain: chainName.optional().describe('Chain name (default: the server’s default chain)'),
  kind: z
    .enum(['eoa', 'smart'])
    .optional()
    .describe(
      'eoa (default): the wallet is a vault key. smart: a smart account owned by a vault key, acted for through a session key whose limits the chain enforces',
    ),
})
export type CreateWalletParameters = z.input<typeof createWalletSchema>

export const upgradeWalletSchema = z.strictObject({
  wallet: walletField.describe('Address of the EOA wallet to upgrade in place by EIP-7702'),
})
export type UpgradeWalletParameters = z.input<typeof upgradeWalletSchema>

export const importWalletSchema = z.strictObject({
  privateKey: hexDataSchema.refine((key) => key.length === 66, 'privateKey must be 32 bytes of hex'),
  agentName,
  chain: chainName.optional(),
})
export type ImportWalletParameters = z.input<typeof importWalletSchema>

/** A page of wallets, oldest first: at most `limit` (default 100, at most 1000) from `offset`. */
export const walletListQuerySchema = z.strictObject({
  ...pageFields({ defaultLimit: 100, maxLimit: 1000 }),
})
export type ListWalletsParameters = z.input<typeof walletListQuerySchema>

const allowanceSchema = z.object({
  amount: out.baseUnits,
  period: z.number().int().describe('Seconds per period'),
})

/** A smart wallet's keys and its session key's on-chain permissions, as the API shows them. */
export const smartWalletSchema = z.object({
  account: z
    .enum(['hybrid', 'eip7702'])
    .describe('hybrid: a HybridDeleGator from the factory; eip7702: an EOA upgraded in place'),
  owner: out.address.describe(
    'The owner key (in the vault): signs the session key’s delegations, revokes them',
  ),
  sessionKey: out.address.describe(
    'The session key (in the vault) the agent acts through: its account sends the user operations',
  ),
  expiresAt: out.timestamp.describe('When the session key’s delegations stop being redeemable'),
  permissions: z
    .object({
      targets: z.array(out.address).optional(),
      selectors: z.array(z.string()).optional(),
      native: z
        .object({ perCall: out.baseUnits.optional(), allowance: allowanceSchema.optional() })
        .optional(),
      tokens: z.array(z.object({ token: out.address, allowance: allowanceSchema })).optional(),
    })
    .describe('What the chain enforces for the session key (base units); absent fields do not restrict'),
  offChainOnly: z
    .array(z.object({ ruleId: z.string().optional(), type: z.string(), reason: z.string() }))
    .describe('Rules the chain cannot express: the service alone judges them'),
  delegationHashes: z.array(z.string()).describe('The delegations’ EIP-712 hashes: their ids on chain'),
  sponsoredGas: z
    .object({
      paymaster: out.address,
      spent: out.baseUnits.describe('Wei the paymaster paid for this wallet’s operations since `since`'),
      since: out.timestamp,
    })
    .optional()
    .describe(
      'Gas the tenant’s paymaster paid for this wallet in the last 24 hours (GET /wallet/:wallet only; absent without a paymaster)',
    ),
})

/** The wallet as the API shows it. */
export const walletSchema = z.object({
  id: z.string(),
  address: out.address,
  chain: z.string(),
  agentName: z.string(),
  kind: z
    .enum(['eoa', 'smart', 'relayer'])
    .describe(
      'eoa: the key is the account; smart: a smart account acted for by a session key; relayer: submits user operations',
    ),
  smart: smartWalletSchema.optional().describe('For a smart wallet: its keys and its session key’s limits'),
  createdAt: out.timestamp,
})

export const balanceQuerySchema = z.strictObject({
  chain: chainField.optional(),
  tokens: z
    .array(addressSchema)
    .max(50)
    .optional()
    .describe('ERC-20 addresses to report beside the chain’s known tokens'),
})
export type GetBalanceParameters = z.input<typeof balanceQuerySchema>

const tokenBalanceSchema = z.object({
  address: out.address,
  symbol: z.string(),
  decimals: z.number().int(),
  balance: out.decimal,
  raw: out.baseUnits,
})

const balanceFields = {
  chain: z.string(),
  eth: out.decimal.describe('Native balance in ETH (the chain’s native coin)'),
  wei: out.baseUnits,
  tokens: z.array(tokenBalanceSchema),
}

/** A wallet's balances; the same figures again under `balance`, as the reference clients read them. */
export const balanceSchema = z.object({
  address: out.address,
  ...balanceFields,
  balance: z.object(balanceFields),
})

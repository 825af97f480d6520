import * as z from 'zod/mini'
import { out } from '../schemas/out.js'
import { addressSchema, displayTextSchema, pageFields, walletAddressSchema } from '../schemas/primitives.js'

const agentName = displayTextSchema(100).check(z.minLength(1, 'agentName must not be empty'))
const chainName = z.string().check(z.minLength(1), z.maxLength(64))

/** The managed wallet that acts or is read: one name in every operation and tool. */
export const walletField = walletAddressSchema.check(
  z.describe('Address of a managed wallet (EVM: 0x + 40 hex; Solana: base58)'),
)

/** The chain to use instead of the wallet's own (its name in the server's configuration). */
export const chainField = chainName.check(z.describe('Chain name (default: the wallet’s chain)'))

export const createWalletSchema = z.strictObject({
  agentName: agentName.check(z.describe('Name of the agent the wallet belongs to, shown to humans')),
  chain: z.optional(chainName).check(z.describe('Chain name (default: the server’s default chain)')),
  kind: z
    .optional(z.enum(['eoa', 'smart']))
    .check(
      z.describe(
        'eoa (default): the wallet is a vault key. smart: a smart account owned by a vault key, acted for through a session key whose limits the chain enforces',
      ),
    ),
})
export type CreateWalletParameters = z.input<typeof createWalletSchema>

export const upgradeWalletSchema = z.strictObject({
  wallet: walletField.check(z.describe('Address of the EOA wallet to upgrade in place by EIP-7702')),
})
export type UpgradeWalletParameters = z.input<typeof upgradeWalletSchema>

export const importWalletSchema = z.strictObject({
  privateKey: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(1000),
      z.describe(
        'The secret key, in its chain family’s form. EVM: 0x + 64 hex. Solana: the Solana CLI keypair file (a JSON array of 64 numbers), base58 of the 64-byte secret key (Phantom, Solflare, Backpack), or base58 or hex of the 32-byte seed',
      ),
    ),
  agentName,
  chain: z.optional(chainName),
})
export type ImportWalletParameters = z.input<typeof importWalletSchema>

/** A page of wallets, oldest first: at most `limit` (default 100, at most 1000) from `offset`. */
export const walletListQuerySchema = z.strictObject({
  ...pageFields({ defaultLimit: 100, maxLimit: 1000 }),
})
export type ListWalletsParameters = z.input<typeof walletListQuerySchema>

const allowanceSchema = z.object({
  amount: out.baseUnits,
  period: z.number().check(z.int(), z.describe('Seconds per period')),
})

/** A smart wallet's keys and its session key's on-chain permissions, as the API shows them. */
export const smartWalletSchema = z.object({
  account: z
    .enum(['hybrid', 'eip7702'])
    .check(z.describe('hybrid: a HybridDeleGator from the factory; eip7702: an EOA upgraded in place')),
  owner: out.address.check(
    z.describe('The owner key (in the vault): signs the session key’s delegations, revokes them'),
  ),
  sessionKey: out.address.check(
    z.describe(
      'The session key (in the vault) the agent acts through: its account sends the user operations',
    ),
  ),
  expiresAt: out.timestamp.check(z.describe('When the session key’s delegations stop being redeemable')),
  permissions: z
    .object({
      targets: z.optional(z.array(out.address)),
      selectors: z.optional(z.array(z.string())),
      native: z.optional(
        z.object({ perCall: z.optional(out.baseUnits), allowance: z.optional(allowanceSchema) }),
      ),
      tokens: z.optional(z.array(z.object({ token: out.address, allowance: allowanceSchema }))),
    })
    .check(
      z.describe('What the chain enforces for the session key (base units); absent fields do not restrict'),
    ),
  offChainOnly: z
    .array(z.object({ ruleId: z.optional(z.string()), type: z.string(), reason: z.string() }))
    .check(z.describe('Rules the chain cannot express: the service alone judges them')),
  nativeFromDefaults: z
    .optional(z.boolean())
    .check(
      z.describe(
        'true when `permissions.native` are the default rules’ bounds: the wallet’s rules set none the chain can hold (no rules yet), and a session grant is never uncapped',
      ),
    ),
  delegationHashes: z
    .array(z.string())
    .check(z.describe('The delegations’ EIP-712 hashes: their ids on chain')),
  grants: z
    .array(
      z.object({
        state: z
          .enum(['active', 'pending_revocation', 'revoked'])
          .check(
            z.describe(
              'active: the grant the session key uses; pending_revocation: replaced after a rules change but still redeemable on chain until the owner revokes it (once the wallet is deployed) or it expires; revoked: disabled on chain',
            ),
          ),
        delegationHashes: z.array(z.string()),
        issuedAt: z.optional(out.timestamp),
        expiresAt: out.timestamp.check(
          z.describe('When its delegations stop being redeemable (at the latest)'),
        ),
        revokedAt: z.optional(out.timestamp.check(z.describe('When the chain was seen to hold it disabled'))),
      }),
    )
    .check(
      z.describe(
        'Every session grant of the wallet within its lifetime, newest first: the active one, and each one a rules change replaced, with whether the chain still honours it',
      ),
    ),
  sponsoredGas: z
    .optional(
      z.object({
        paymaster: out.address,
        spent: out.baseUnits.check(
          z.describe('Wei the paymaster paid for this wallet’s operations since `since`'),
        ),
        since: out.timestamp,
      }),
    )
    .check(
      z.describe(
        'Gas the tenant’s paymaster paid for this wallet in the last 24 hours (GET /wallet/:wallet only; absent without a paymaster)',
      ),
    ),
})

/** The wallet as the API shows it. */
export const walletSchema = z.object({
  id: z.string(),
  address: out.walletAddress,
  chain: z.string(),
  agentName: z.string(),
  kind: z
    .enum(['eoa', 'smart', 'relayer'])
    .check(
      z.describe(
        'eoa: the key is the account; smart: a smart account acted for by a session key; relayer: submits user operations',
      ),
    ),
  smart: z
    .optional(smartWalletSchema)
    .check(z.describe('For a smart wallet: its keys and its session key’s limits')),
  createdAt: out.timestamp,
})

export const balanceQuerySchema = z.strictObject({
  chain: z.optional(chainField),
  tokens: z
    .optional(z.array(addressSchema).check(z.maxLength(50)))
    .check(z.describe('ERC-20 addresses to report beside the chain’s known tokens')),
})
export type GetBalanceParameters = z.input<typeof balanceQuerySchema>

const tokenBalanceSchema = z.object({
  address: out.walletAddress.check(z.describe('The token: an ERC-20 contract, or an SPL mint on Solana')),
  symbol: z.string(),
  decimals: z.number().check(z.int()),
  balance: out.decimal,
  raw: out.baseUnits,
})

const balanceFields = {
  chain: z.string(),
  eth: out.decimal.check(
    z.describe('Native balance in the chain’s native coin (ETH; SOL on a Solana chain)'),
  ),
  wei: out.baseUnits.check(z.describe('Native balance in base units (wei; lamports on a Solana chain)')),
  tokens: z.array(tokenBalanceSchema),
}

/** A wallet's balances; the same figures again under `balance`, as the reference clients read them. */
export const balanceSchema = z.object({
  address: out.walletAddress,
  ...balanceFields,
  balance: z.object(balanceFields),
})

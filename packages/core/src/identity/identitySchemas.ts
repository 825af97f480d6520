import * as z from 'zod'
import { out } from '../schemas/out.js'
import { addressSchema, displayTextSchema } from '../schemas/primitives.js'
import { approvalSummarySchema } from '../transactions/transactionSchemas.js'
import { chainField, walletField } from '../wallets/walletSchemas.js'

/** Every text of a registration file is display text: explorers and our dashboard show it. */
const serviceSchema = z.strictObject({
  name: displayTextSchema(64).min(1),
  endpoint: displayTextSchema(2048).min(1),
  version: displayTextSchema(32).optional(),
})

/** The wallet to register as an agent (`walletAddress` over HTTP too), and what its registration file says. */
export const registerIdentitySchema = z.strictObject({
  wallet: walletField.describe('The managed wallet to register as the agent’s wallet'),
  agentName: displayTextSchema(100).min(1),
  agentType: displayTextSchema(64).min(1).describe('What kind of agent it is, e.g. "trading"'),
  description: displayTextSchema(1000, { multiline: true }).optional(),
  capabilities: z.array(displayTextSchema(100).min(1)).max(50).optional(),
  services: z.array(serviceSchema).max(20).optional(),
  chain: chainField.optional(),
  owner: addressSchema
    .optional()
    .describe('A managed wallet that owns the identity NFT and pays gas (default: `wallet` itself)'),
})
export type RegisterIdentityParameters = z.input<typeof registerIdentitySchema>

/** An agentId: a uint256 in decimal. */
export const agentIdSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,77})$/, { message: 'agentId must be a non-negative decimal integer' })
  .transform((value) => BigInt(value))
  .refine((value) => value < 2n ** 256n, { message: 'agentId must fit in uint256' })

export const getIdentitySchema = z.strictObject({
  agentId: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,77})$/, { message: 'agentId must be a non-negative decimal integer' })
    // A value the pattern refused still reaches this check: it must not throw on it.
    .refine((value) => !/^\d+$/.test(value) || BigInt(value) < 2n ** 256n, {
      message: 'agentId must fit in uint256',
    })
    .describe('The agent id: a uint256 in decimal'),
  chain: chainField.optional(),
})

const identityServiceSchema = z.object({
  name: z.string(),
  endpoint: z.string(),
  version: z.string().optional(),
})

/** A registered identity as lists show it. */
export const identitySchema = z.object({
  agentId: z.string().describe('uint256 in decimal'),
  /** The registration operation that created it (`GET /identity/registration/:registrationId`). */
  registrationId: z.string(),
  chain: z.string(),
  chainId: z.number().int(),
  agentRegistry: z.string().describe('eip155:{chainId}:{registry}'),
  walletAddress: out.address,
  ownerAddress: out.address,
  agentName: z.string(),
  agentType: z.string(),
  capabilities: z.array(z.string()),
  services: z.array(identityServiceSchema),
  agentURI: z.string(),
  createdAt: out.timestamp,
})

const identitySteps = ['register', 'setAgentURI', 'setAgentWallet'] as const
const stepRecord = <T extends z.ZodType>(value: T) =>
  z.object({ register: value.optional(), setAgentURI: value.optional(), setAgentWallet: value.optional() })

/** A registration in progress (or ended). */
export const identityRegistrationSchema = z.object({
  id: z.string(),
  status: z.enum(['registering', 'awaiting_approval', 'registered', 'failed']),
  step: z.enum(identitySteps).nullable(),
  approvalId: z.string().nullable(),
  chain: z.string(),
  chainId: z.number().int(),
  agentRegistry: z.string(),
  agentId: z.string().nullable(),
  walletAddress: out.address,
  ownerAddress: out.address,
  agentName: z.string(),
  agentType: z.string(),
  agentURI: z.string().nullable(),
  transactions: stepRecord(z.string()),
  hashes: stepRecord(out.hash),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  createdAt: out.timestamp,
  updatedAt: out.timestamp,
})

/** A registration: done at once (201), or paused at a step for a human (202). */
export const registerIdentityAnswerSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('registered'), identity: identitySchema }),
  z.object({
    status: z.literal('pending_approval'),
    approval: approvalSummarySchema,
    identity: identityRegistrationSchema,
  }),
])

const typedDataField = z.object({ name: z.string(), type: z.string() })

/** An identity read back from chain, with a fresh proof of ownership signed by its agent wallet. */
export const identityDetailSchema = identitySchema.extend({
  status: z.enum(['active', 'wallet_unbound', 'wallet_changed', 'burned']),
  walletBound: z.boolean(),
  onChain: z.object({
    owner: out.address.nullable(),
    agentURI: z.string().nullable(),
    agentWallet: out.address.nullable(),
    metadata: z.object({ agentName: z.string().nullable(), agentType: z.string().nullable() }),
  }),
  registration: z.unknown().describe('The registration file, when the agentURI is a data: URI'),
  registries: z.object({
    identity: out.address,
    reputation: out.address.nullable(),
    validation: out.address.nullable(),
  }),
  proof: z.object({
    scheme: z.literal('eip712'),
    signer: out.address,
    signature: out.hex,
    typedData: z.object({
      domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().int() }),
      types: z.record(z.string(), z.array(typedDataField).readonly()),
      primaryType: z.literal('AgentIdentityProof'),
      message: z.object({
        chainId: z.string(),
        registry: out.address,
        agentId: z.string(),
        agentWallet: out.address,
        issuedAt: z.string(),
      }),
    }),
    matchesChain: z.boolean(),
  }),
  howToVerify: z.object({ summary: z.string(), viem: z.string(), onChain: z.string() }),
  warnings: z.array(z.string()),
})

export const identityListSchema = z.object({ count: z.number().int(), identities: z.array(identitySchema) })

import * as z from 'zod/mini'
import { out } from '../schemas/out.js'
import { addressSchema, displayTextSchema } from '../schemas/primitives.js'
import { approvalSummarySchema } from '../transactions/transactionSchemas.js'
import { chainField, walletField } from '../wallets/walletSchemas.js'

/** Every text of a registration file is display text: explorers and our dashboard show it. */
const serviceSchema = z.strictObject({
  name: displayTextSchema(64).check(z.minLength(1)),
  endpoint: displayTextSchema(2048).check(z.minLength(1)),
  version: z.optional(displayTextSchema(32)),
})

/** The wallet to register as an agent (`walletAddress` over HTTP too), and what its registration file says. */
export const registerIdentitySchema = z.strictObject({
  wallet: walletField.check(z.describe('The managed wallet to register as the agent’s wallet')),
  agentName: displayTextSchema(100).check(z.minLength(1)),
  agentType: displayTextSchema(64).check(
    z.minLength(1),
    z.describe('What kind of agent it is, e.g. "trading"'),
  ),
  description: z.optional(displayTextSchema(1000, { multiline: true })),
  capabilities: z.optional(z.array(displayTextSchema(100).check(z.minLength(1))).check(z.maxLength(50))),
  services: z.optional(z.array(serviceSchema).check(z.maxLength(20))),
  chain: z.optional(chainField),
  owner: z
    .optional(addressSchema)
    .check(z.describe('A managed wallet that owns the identity NFT and pays gas (default: `wallet` itself)')),
})
export type RegisterIdentityParameters = z.input<typeof registerIdentitySchema>

/** An agentId: a uint256 in decimal. */
export const agentIdSchema = z
  .pipe(
    z
      .string()
      .check(
        z.regex(/^(0|[1-9][0-9]{0,77})$/, { message: 'agentId must be a non-negative decimal integer' }),
      ),
    z.transform((value) => BigInt(value)),
  )
  .check(z.refine((value) => value < 2n ** 256n, { message: 'agentId must fit in uint256' }))

export const getIdentitySchema = z.strictObject({
  agentId: z.string().check(
    z.regex(/^(0|[1-9][0-9]{0,77})$/, { message: 'agentId must be a non-negative decimal integer' }),
    z.refine((value) => !/^\d+$/.test(value) || BigInt(value) < 2n ** 256n, {
      message: 'agentId must fit in uint256',
    }),
    z.describe('The agent id: a uint256 in decimal'),
  ),
  chain: z.optional(chainField),
})

const identityServiceSchema = z.object({
  name: z.string(),
  endpoint: z.string(),
  version: z.optional(z.string()),
})

/** A registered identity as lists show it. */
export const identitySchema = z.object({
  agentId: z.string().check(z.describe('uint256 in decimal')),
  /** The registration operation that created it (`GET /identity/registration/:registrationId`). */
  registrationId: z.string(),
  chain: z.string(),
  chainId: z.number().check(z.int()),
  agentRegistry: z.string().check(z.describe('eip155:{chainId}:{registry}')),
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
const stepRecord = <T extends z.ZodMiniType>(value: T) =>
  z.object({ register: z.optional(value), setAgentURI: z.optional(value), setAgentWallet: z.optional(value) })

/** A registration in progress (or ended). */
export const identityRegistrationSchema = z.object({
  id: z.string(),
  status: z.enum(['registering', 'awaiting_approval', 'registered', 'failed']),
  step: z.nullable(z.enum(identitySteps)),
  approvalId: z.nullable(z.string()),
  chain: z.string(),
  chainId: z.number().check(z.int()),
  agentRegistry: z.string(),
  agentId: z.nullable(z.string()),
  walletAddress: out.address,
  ownerAddress: out.address,
  agentName: z.string(),
  agentType: z.string(),
  agentURI: z.nullable(z.string()),
  transactions: stepRecord(z.string()),
  hashes: stepRecord(out.hash),
  error: z.nullable(z.object({ code: z.string(), message: z.string() })),
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
export const identityDetailSchema = z.extend(identitySchema, {
  status: z.enum(['active', 'wallet_unbound', 'wallet_changed', 'burned']),
  walletBound: z.boolean(),
  onChain: z.object({
    owner: z.nullable(out.address),
    agentURI: z.nullable(z.string()),
    agentWallet: z.nullable(out.address),
    metadata: z.object({ agentName: z.nullable(z.string()), agentType: z.nullable(z.string()) }),
  }),
  registration: z.unknown().check(z.describe('The registration file, when the agentURI is a data: URI')),
  registries: z.object({
    identity: out.address,
    reputation: z.nullable(out.address),
    validation: z.nullable(out.address),
  }),
  proof: z.object({
    scheme: z.literal('eip712'),
    signer: out.address,
    signature: out.hex,
    typedData: z.object({
      domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().check(z.int()) }),
      types: z.record(z.string(), z.readonly(z.array(typedDataField))),
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

export const identityListSchema = z.object({
  count: z.number().check(z.int()),
  identities: z.array(identitySchema),
})

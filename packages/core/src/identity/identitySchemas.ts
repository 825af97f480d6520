import { z } from 'zod'
import { addressSchema } from '../schemas/primitives.js'

const serviceSchema = z.strictObject({
  name: z.string().min(1).max(64),
  endpoint: z.string().min(1).max(2048),
  version: z.string().max(32).optional(),
})

/** `POST /identity/create`: the wallet to register as an agent, and what its registration file says. */
export const registerIdentitySchema = z.strictObject({
  walletAddress: addressSchema,
  agentName: z.string().trim().min(1).max(100),
  agentType: z.string().trim().min(1).max(64),
  description: z.string().max(1000).optional(),
  capabilities: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
  services: z.array(serviceSchema).max(20).optional(),
  chain: z.string().min(1).max(64).optional(),
  /** A managed wallet that owns the identity NFT and pays gas (default: `walletAddress` itself). */
  owner: addressSchema.optional(),
})
export type RegisterIdentityParameters = z.input<typeof registerIdentitySchema>

/** An agentId: a uint256 in decimal. */
export const agentIdSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,77})$/, { message: 'agentId must be a non-negative decimal integer' })
  .transform((value) => BigInt(value))
  .refine((value) => value < 2n ** 256n, { message: 'agentId must fit in uint256' })

export const identityQuerySchema = z.strictObject({ chain: z.string().min(1).max(64).optional() })

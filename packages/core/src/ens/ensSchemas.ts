import * as z from 'zod/mini'
import { out } from '../schemas/out.js'
import { addressSchema, walletAddressSchema } from '../schemas/primitives.js'
import { chainField } from '../wallets/walletSchemas.js'

/** The controller refuses registrations shorter than 28 days. */
export const minRegistrationSeconds = 28 * 24 * 60 * 60
export const secondsPerYear = 365 * 24 * 60 * 60

const durationFields = {
  years: z.optional(z.number().check(z.int(), z.gte(1), z.lte(100))),
  durationSeconds: z.optional(
    z.number().check(z.int(), z.gte(minRegistrationSeconds), z.lte(100 * secondsPerYear)),
  ),
}

function oneDuration(value: { years?: number | undefined; durationSeconds?: number | undefined }): boolean {
  return value.years === undefined || value.durationSeconds === undefined
}
const durationMessage = {
  message: 'Give either years or durationSeconds, not both',
  path: ['durationSeconds'],
}

const nameField = z.string().check(z.maxLength(255), z.describe('An ENS name, e.g. "my-agent.eth"'))
const ensChain = z.optional(chainField).check(z.describe('Chain name (default: the server’s default chain)'))

/** `checkEnsName`: the name, the chain and the duration to price (default one year). */
export const checkEnsSchema = z
  .strictObject({ name: nameField, chain: ensChain, ...durationFields })
  .check(z.refine(oneDuration, durationMessage))
export type CheckEnsNameOptions = Omit<z.input<typeof checkEnsSchema>, 'name'>

export const resolveEnsSchema = z.strictObject({ name: nameField, chain: ensChain })
export type ResolveEnsNameOptions = { chain?: string | undefined }

export const reverseEnsSchema = z.strictObject({
  address: addressSchema.check(z.describe('Any address (0x + 40 hex)')),
  chain: ensChain,
})

/** `POST /ens/register`: the name, the paying wallet (the caller's only wallet when absent), how long. */
export const registerEnsSchema = z
  .strictObject({
    name: nameField,
    wallet: z
      .optional(walletAddressSchema)
      .check(
        z.describe('The managed wallet that pays and owns the name (default: the caller’s only wallet)'),
      ),
    chain: z.optional(chainField),
    setReverse: z.optional(z.boolean()).check(z.describe('Also make it the wallet’s primary (reverse) name')),
    ...durationFields,
  })
  .check(z.refine(oneDuration, durationMessage))
export type RegisterEnsNameParameters = z.input<typeof registerEnsSchema>

/** Duration in seconds from `years` / `durationSeconds` (default one year). */
export function durationOf(value: {
  years?: number | undefined
  durationSeconds?: number | undefined
}): number {
  return value.durationSeconds ?? (value.years ?? 1) * secondsPerYear
}

/** The availability and rent of a `.eth` name. */
export const ensCheckAnswerSchema = z.object({
  name: z.string(),
  label: z.string(),
  chain: z.string(),
  valid: z.literal(true),
  available: z.boolean(),
  durationSeconds: z.number().check(z.int()),
  price: z.object({
    wei: out.baseUnits,
    eth: out.decimal,
    baseWei: out.baseUnits,
    premiumWei: out.baseUnits,
  }),
  /** Seconds between commit and register the controller requires. */
  minCommitmentAge: z.number().check(z.int()),
})

export const ensResolveAnswerSchema = z.object({
  name: z.string(),
  address: out.address,
  resolver: out.address,
  chain: z.string(),
})

export const ensReverseAnswerSchema = z.object({ address: out.address, name: z.string(), chain: z.string() })

const stepError = z.object({ code: z.string(), message: z.string() })

/** A `.eth` registration as a tracked operation (never its commit secret). */
export const ensRegistrationSchema = z.object({
  id: z.string(),
  walletId: z.string(),
  chain: z.string(),
  chainId: z.number().check(z.int()),
  name: z.string(),
  label: z.string(),
  node: out.hash,
  owner: out.address,
  durationSeconds: z.number().check(z.int()),
  controller: out.address,
  resolver: out.address,
  commitment: out.hash,
  setReverse: z.boolean(),
  rentWei: out.baseUnits,
  status: z.enum(['committing', 'committed', 'registering', 'registered', 'failed']),
  approvalId: z.optional(z.string()),
  commitTransactionId: z.optional(z.string()),
  commitHash: z.optional(out.hash),
  committedAt: z
    .optional(z.number().check(z.int()))
    .check(z.describe('Block timestamp of the commit (unix seconds)')),
  registerTransactionId: z.optional(z.string()),
  registerHash: z.optional(out.hash),
  reverseTransactionId: z.optional(z.string()),
  reverseHash: z.optional(out.hash),
  reverseError: z.optional(stepError),
  expires: z.optional(z.number().check(z.int())).check(z.describe('Unix seconds')),
  error: z.optional(stepError),
  createdAt: out.timestamp,
  updatedAt: out.timestamp,
  registeredAt: z.optional(out.timestamp),
})
